/**
 * Categories from words. A category rule is a name, a level (merchant, product or both) and keywords;
 * an account brings its own rules (`categories` list) or uses the built-in default list below.
 *
 * Matching: the text and the keywords are normalised alike (lower case, accents folded, `&` -> `and`,
 * punctuation -> space) and a keyword matches whole words (`bar` is not in `barber`); a keyword ending
 * in `*` matches words starting with it (`grocer*`: grocer, grocery, groceries). No fuzzy matching:
 * a category is a soft label and a wrong one costs more than none.
 *
 * Merchant level (`entities.category`, `merchantTypes`): points per rule from where its words were read:
 * the merchant's name (read, or the matched known merchant's) 3, another header line (above the first
 * line item, at most the first 8 lines) 2, any other line 0.5 (at most 1.5 in all), and 0.5 per line item
 * whose product category has the same name (at most 2). A rule needs 1 point; `merchantTypes` lists the
 * rules with at least half the best score (at most 3). Confidence `1 - exp(-points / 2.5)`, at most 0.9.
 * A matched known merchant with a `category` gives that category first, with the match's confidence.
 *
 * Product level (`productLineItems[].data.category`): the category of the item's code in the account's
 * product code list, else the first product-level rule with a keyword in the item's name (the longest
 * keyword wins between rules).
 */
import { normalizeName } from '../validate/names.js';
import type { CategoryRule } from './schema.js';

const M = 'merchant' as const;
const P = 'product' as const;
const rule = (category: string, level: CategoryRule['level'], words: string): CategoryRule => ({
  category, level, keywords: words.split(';').map((w) => w.trim()).filter(Boolean),
});

/**
 * The built-in list: a small curated set of merchant types and product groups with words in English
 * and the languages of the corpus (Malay/Indonesian) plus a few French, German and Spanish ones, and a
 * handful of chains known everywhere. Used for a level when the account's list has no rule of it.
 */
export const DEFAULT_CATEGORIES: readonly CategoryRule[] = Object.freeze([
  rule('grocery', M, 'supermarket*; hypermarket*; minimarket*; mini market; grocer*; mart; pasar raya; kedai runcit; supermercado; supermarche; epicerie; lebensmittel; aeon; tesco; walmart; giant; lotus; costco; aldi; lidl; kroger; carrefour; 7 eleven; familymart; speedmart'),
  rule('food & drink', M, 'restaurant*; restoran; restaurante; ristorante; cafe; cafes; coffee; kopitiam; kopi; bakery; bakeries; bakehouse; bistro; brasserie; trattoria; pizzeria; kitchen; dapur; warung; rumah makan; food; foods; makan; eatery; canteen; kantin; catering; diner; grill; burger*; pizza; sushi; noodle*; bar; pub; tea house; boulangerie; backerei; starbucks; mcdonald*; kfc; dine in; take away; takeaway'),
  rule('pharmacy', M, 'pharmacy; pharmacie; farmasi; farmacia; apotek; apotheke; chemist*; drugstore; drug store; guardian; watsons; boots; walgreens; cvs'),
  rule('health', M, 'clinic; klinik; medical; hospital; dental; dentist*; optical; optometr*; physio*; laboratory'),
  rule('hardware', M, 'hardware; building material*; ironmonger*; baumarkt; quincaillerie; ferreteria; diy; home improvement; home depot; bunnings; kedai besi; plumbing; paint*'),
  rule('fuel', M, 'petrol; fuel; gasoline; diesel; gas station; service station; filling station; spbu; petronas; caltex; esso; petron; shell; tankstelle; carburant; unleaded'),
  rule('electronics', M, 'electronic*; elektronik; computer*; gadget*; mobile phone*; smartphone*; best buy; harvey norman; senheng'),
  rule('stationery', M, 'stationer*; bookstore*; bookshop*; book store; kedai buku; papeterie; schreibwaren; papeleria; office supplies; photocopy; printing'),
  rule('hotel', M, 'hotel*; hostel*; motel*; inn; resort*; lodging; penginapan; guest house; guesthouse; homestay; room charge'),
  rule('transport', M, 'parking; car park; toll; taxi; grab; uber; e hailing; airline*; airways; railway*; transport*'),
  rule('clothing', M, 'apparel; fashion; clothing; boutique; tailor*; footwear; shoes; uniqlo; zara'),
  rule('beauty', M, 'salon; spa; beauty; cosmetic*; barber*'),
  rule('technology', M, 'hosting; software; cloud; internet; telecom*; broadband; fibre; fiber; subscription'),

  rule('beverages', P, 'water; mineral water; juice; jus; coffee; kopi; tea; teh; milo; soda; cola; coke; pepsi; sprite; drink*; minuman; latte; cappuccino; espresso; mocha; americano; smoothie*'),
  rule('dairy', P, 'milk; susu; cheese; butter; yogurt; yoghurt; cream; creamer'),
  rule('bakery', P, 'bread; roti; bun; buns; cake*; croissant*; pastry; pastries; muffin*; donut*; doughnut*; baguette*; bagel*; tart; tarts; tarte*; brioche; kuih'),
  rule('produce', P, 'apple*; banana*; orange*; tomato*; potato*; onion*; garlic; vegetable*; sayur*; fruit*; buah; lettuce; carrot*; cabbage; cucumber*; lemon*; lime*; chilli*; chili*; grape*; mango*'),
  rule('meat & seafood', P, 'chicken; ayam; beef; daging; pork; fish; ikan; prawn*; udang; shrimp*; lamb; mutton; kambing; sausage*; bacon; ham; salmon; tuna; squid; sotong'),
  rule('prepared food', P, 'nasi; mee; mi; rice; noodle*; burger*; pizza*; sandwich*; soup; fries; salad*; sushi; set meal; meal; combo; kuey teow; laksa; roti canai; dim sum; nasi lemak; nasi goreng; nasi campur; mee goreng; fried rice; chicken rice'),
  rule('snacks', P, 'chips; crisps; biscuit*; chocolate*; candy; sweets; cookie*; cracker*; snack*; keropok'),
  rule('alcohol', P, 'beer*; wine*; whisky; whiskey; vodka; liquor; sake; cider; rum; gin; champagne; heineken; carlsberg'),
  rule('tobacco', P, 'cigarette*; tobacco; rokok; cigar*; vape'),
  rule('household', P, 'detergent*; tissue*; toilet roll*; cleaner*; bleach; dishwash*; trash bag*; garbage bag*; kitchen towel*; softener; aluminium foil; cling wrap'),
  rule('personal care', P, 'shampoo*; soap*; toothpaste*; toothbrush*; deodorant*; lotion*; razor*; diaper*; nappy; nappies; sanitary; conditioner; body wash'),
  rule('health', P, 'panadol; paracetamol; vitamin*; medicine*; ubat; tablet*; capsule*; syrup; plaster*; face mask*; antiseptic; ointment'),
  rule('hardware', P, 'screw*; nail; nails; bolt*; hammer*; drill*; paint*; tape; glue; pipe*; wire*; spanner*; plier*; sandpaper; hinge*; padlock*; bulb*; extension cord*; cement; papan; plywood'),
  rule('stationery', P, 'pen; pens; pencil*; paper; notebook*; envelope*; stapler*; staple*; eraser*; ruler*; marker*; highlighter*; a4; folder*; file; files; sticky note*'),
  rule('electronics', P, 'charger*; usb; headphone*; earphone*; earbud*; battery; batteries; adapter*; adaptor*; power bank*; mouse; keyboard*; hdmi; sd card*'),
  rule('fuel', P, 'petrol; diesel; unleaded; ron95; ron 95; ron97; ron 97; primax*; v power; fuelsave'),
  rule('services', P, 'delivery; service charge; installation; labour; labor; shipping; postage; handling fee; consultation'),
]);

/** A rule compiled for matching normalised text. */
export interface CompiledRule {
  rule: CategoryRule;
  /** One pattern per keyword, with the keyword. */
  patterns: Array<{ keyword: string; re: RegExp; length: number }>;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileRules(rules: readonly CategoryRule[]): CompiledRule[] {
  return rules.map((rule) => ({
    rule,
    patterns: rule.keywords.flatMap((keyword) => {
      const prefix = keyword.trim().endsWith('*');
      const words = normalizeName(prefix ? keyword.trim().slice(0, -1) : keyword);
      if (!words) return [];
      const re = new RegExp(`(?:^| )${escape(words)}${prefix ? '[\\p{L}\\p{N}]*' : ''}(?= |$)`, 'u');
      return [{ keyword, re, length: words.length }];
    }),
  }));
}

/** The longest keyword of the rule found in already normalised text (as the text has it), or undefined. */
export function ruleHit(rule: CompiledRule, normalised: string): { keyword: string; length: number } | undefined {
  let best: { keyword: string; length: number } | undefined;
  for (const p of rule.patterns) {
    const m = p.re.exec(normalised);
    if (m && (!best || p.length > best.length)) best = { keyword: m[0].trim(), length: p.length };
  }
  return best;
}

/** Product category of a name: the rule with the longest matching keyword (first rule on ties). */
export function productCategory(rules: readonly CompiledRule[], name: string): { category: string; keyword: string } | undefined {
  const n = normalizeName(name);
  if (!n) return undefined;
  let best: { category: string; keyword: string; length: number } | undefined;
  for (const r of rules) {
    const hit = ruleHit(r, n);
    if (hit && (!best || hit.length > best.length)) best = { category: r.rule.category, keyword: hit.keyword, length: hit.length };
  }
  return best ? { category: best.category, keyword: best.keyword } : undefined;
}

/** Where the merchant-level evidence comes from. */
export interface MerchantCategoryInput {
  /** The read merchant name, with its line index. */
  merchantName?: { text: string; lineIndex: number };
  /** The matched known merchant's name (and category, which wins). */
  knownMerchant?: { name: string; category?: string; confidence: number };
  /** Every line of the document in reading order. */
  lines: string[];
  /** Index of the first line-item line (header lines are above it; at most the first 8 lines). */
  firstItemLine?: number;
  /** Product categories of the line items. */
  itemCategories: string[];
}

export interface CategoryVote {
  category: string;
  points: number;
  confidence: number;
  /** The keyword that gave the most points ('-' for a known merchant's own category). */
  keyword: string;
  /** Line the keyword was read on (-1: not from a line). */
  lineIndex: number;
  source: 'knownMerchant' | 'keywords';
}

const HEADER_LINES = 8;
export const confidenceOfPoints = (points: number) => Math.min(0.9, 1 - Math.exp(-points / 2.5));

/** Merchant categories, best first: `[0]` is `entities.category`, those kept are `merchantTypes`. */
export function merchantCategories(rules: readonly CompiledRule[], input: MerchantCategoryInput): CategoryVote[] {
  interface Tally { category: string; points: number; body: number; best: number; keyword: string; lineIndex: number }
  const votes = new Map<string, Tally>();
  const add = (category: string, points: number, keyword: string, lineIndex: number, body = false) => {
    const key = category.toLowerCase();
    let v = votes.get(key);
    if (!v) { v = { category, points: 0, body: 0, best: 0, keyword, lineIndex }; votes.set(key, v); }
    if (body) {
      points = Math.min(points, Math.max(0, 1.5 - v.body));
      v.body += points;
    }
    // the keyword and line of the strongest single piece of evidence
    if (points > v.best) { v.best = points; v.keyword = keyword; v.lineIndex = lineIndex; }
    v.points += points;
  };
  const headerEnd = Math.min(HEADER_LINES, input.firstItemLine ?? HEADER_LINES, input.lines.length);
  const nameLine = input.merchantName?.lineIndex ?? -1;
  for (const r of rules) {
    if (input.merchantName) {
      const hit = ruleHit(r, normalizeName(input.merchantName.text));
      if (hit) add(r.rule.category, 3, hit.keyword, nameLine);
    }
    if (input.knownMerchant) {
      const hit = ruleHit(r, normalizeName(input.knownMerchant.name));
      if (hit) add(r.rule.category, 3, hit.keyword, nameLine);
    }
    input.lines.forEach((line, i) => {
      if (i === nameLine) return;
      const hit = ruleHit(r, normalizeName(line));
      if (!hit) return;
      if (i < headerEnd) add(r.rule.category, 2, hit.keyword, i);
      else add(r.rule.category, 0.5, hit.keyword, i, true);
    });
  }
  // line items whose product category names a merchant category
  const ruleNames = new Map(rules.map((r) => [r.rule.category.toLowerCase(), r.rule.category]));
  const itemVotes = new Map<string, number>();
  for (const c of input.itemCategories) {
    const name = ruleNames.get(c.toLowerCase());
    if (!name) continue;
    const n = itemVotes.get(name) ?? 0;
    if (n >= 2) continue;
    itemVotes.set(name, n + 0.5);
    add(name, 0.5, c, -1);
  }
  let out: CategoryVote[] = [...votes.values()]
    .filter((v) => v.points >= 1)
    .map(({ category, points, keyword, lineIndex }) => ({ category, points, confidence: confidenceOfPoints(points), keyword, lineIndex, source: 'keywords' as const }));
  out.sort((a, b) => b.points - a.points);
  const known = input.knownMerchant?.category;
  if (known) {
    out = out.filter((v) => v.category.toLowerCase() !== known.toLowerCase());
    out.unshift({ category: known, points: Infinity, confidence: Math.min(0.95, input.knownMerchant!.confidence), keyword: '-', lineIndex: nameLine, source: 'knownMerchant' });
    return out.filter((v, i) => i === 0 || v.points >= 2).slice(0, 3);
  }
  if (!out.length) return [];
  const top = out[0]!.points;
  return out.filter((v) => v.points >= top / 2).slice(0, 3);
}
