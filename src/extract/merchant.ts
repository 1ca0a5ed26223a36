/**
 * The merchant fields of a Document: the name's candidates (fields/merchant.ts nameCandidates, the rule
 * lists of fields/merchant/) chosen by resolve/name.ts, then the address block under the name
 * (fields/address.ts), and the merchant's phone, tax id, website and types (fields/merchant/contact.ts).
 */
import type { Document } from '../document/types.js';
import type { Locale } from '../locale/index.js';
import { findAddress } from '../fields/address.js';
import { nameCandidates } from '../fields/merchant.js';
import { contactFields, merchantTypes } from '../fields/merchant/contact.js';
import { merchantContext } from '../fields/merchant/context.js';
import type { MerchantFields } from '../fields/merchant/types.js';
import { chooseName } from '../resolve/name.js';
import type { RankModel } from '../resolve/field-model.js';
import { tapCandidates } from '../resolve/model.js';

/** Finds the merchant fields; with `model` (the fitted name model, the default: resolve/field-model.ts rankingModel) the name's candidates are ranked by its weights. */
export function findMerchant(doc: Document, locale: Locale, opts: { ignoreMerchantName?: string; model?: RankModel }): MerchantFields {
  const out: MerchantFields = {};
  const ctx = merchantContext(doc, locale, opts);
  if (!ctx) return out;
  const cands = nameCandidates(ctx);
  tapCandidates('name', () => cands.map((c) => ({ value: c.value, features: c.features, score: c.score })));
  const chosen = chooseName(ctx, cands, opts.model);
  if (chosen) {
    out.merchantName = chosen.name;
    out.evidence = { merchantName: chosen.evidence };
  }
  const nameLine = chosen && !chosen.best.fromBrand ? chosen.best.seg.line : undefined;
  Object.assign(out, findAddress(doc, locale, { nameLine, nameBox: nameLine ? chosen?.best.seg.box : undefined, customer: ctx.customer, gap: ctx.gap }));
  Object.assign(out, contactFields(doc));
  const types = merchantTypes(doc.text);
  if (types.length && out.merchantName) {
    const { companyForm: _form, ...at } = out.merchantName;
    out.merchantTypes = { ...at, value: types, confidence: 0.5, keyword: '-' };
  }
  return out;
}
