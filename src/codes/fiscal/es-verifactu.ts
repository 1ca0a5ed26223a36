/**
 * Spain: the VERI*FACTU QR code of an invoice issued by a billing system under Real Decreto 1007/2023.
 *
 * Specification: Orden HAC/1177/2024, article 21, and AEAT, "Características del QR y especificaciones
 * del servicio de cotejo o remisión de información por parte del receptor de la factura"
 * (https://www.agenciatributaria.es/static_files/AEAT_Desarrolladores/EEDD/IVA/VERI-FACTU/DetalleEspecificacTecnCodigoQRfactura.pdf):
 * `https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=<issuer NIF>&numserie=<series and
 * number>&fecha=<DD-MM-AAAA>&importe=<total>` (`ValidarQRNoVerifactu` for systems that do not send
 * each record; the `prewww2` host for tests).
 */
import type { FiscalFields } from '../../contract/codes.js';
import type { FiscalFormat } from '../types.js';
import { amountOf, isoDate, queryOf, required } from './common.js';

function parse(text: string): FiscalFields {
  const q = queryOf(text);
  const nif = required(q, 'nif').toUpperCase();
  if (!/^[0-9A-Z]\d{7}[0-9A-Z]$/.test(nif)) throw new Error(`nif ${JSON.stringify(nif)} is not a Spanish NIF`);
  const f = required(q, 'fecha');
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(f);
  if (!m) throw new Error(`fecha ${JSON.stringify(f)} is not DD-MM-AAAA`);
  const num = q.get('numserie');
  return {
    totalAmount: amountOf(required(q, 'importe'), 'importe'),
    date: isoDate(Number(m[3]), Number(m[2]), Number(m[1]), 'fecha'),
    merchantTaxId: nif,
    ...(num ? { invoiceNumber: num } : {}),
    currencyCode: 'EUR',
  };
}

function matches(code: { format: string; text: string }): boolean {
  return code.format === 'QRCode' && /agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR/i.test(code.text);
}

export const esVerifactu: FiscalFormat = {
  scheme: 'es-verifactu', country: 'ES',
  specification: 'Orden HAC/1177/2024 art. 21; AEAT QR specification (nif, numserie, fecha, importe)',
  matches, parse,
};
