import { describe, expect, it } from 'vitest';
import { inferLocale, unglued } from '../../src/locale/index.js';
import { documentFromText } from '../../src/document/geometry.js';
import { extractFields } from '../../src/extract/index.js';

const locale = (text: string) => inferLocale(documentFromText(text));
const currency = (text: string) => locale(text).currency;

describe('the currency from where the page is (issue 34: currency on every set)', () => {
  it('reads tax numbers that name one country', () => {
    // an Australian business number with a letter OCR made of a digit
    expect(currency('Royal Hotel\nTax Invoice\nABN: 12 p97 840 887\nSubtotal $59.60\nTotal $63.60')).toBe('AUD');
    // a Singapore GST registration number (the Malaysian "GST Reg No" words alone do not outweigh it)
    expect(currency('SHIMBASHI SOBA\n290 Orchard Road #B1-41\nGST Reg No:20-0301619-0\nSUBTOTAL 100.30\nTOTAL 118.05')).toBe('SGD');
    // its check character lost at the line's end, beside a bare "$"
    expect(currency('The Blue Ginger\n97 Tanjong Pagar Road\nGST REG NO:20-0201085-\nSUBTOTAL $97.30\nTOTAL $102.75')).toBe('SGD');
    // an Indian GST identification number
    expect(currency('Vihar Vegetarian Restaurant\nFood Total 245.00\nGrand Total 245.00\nGST NO.-30ABNPS1185Q1Z2')).toBe('INR');
    // a Thai company tax id, an Emirates tax registration number
    expect(currency('Tax ID: 0105542019730\nSUSHI SET 220.00\nTotal: 1,199.00\nVAT(7.00%) : 78.44')).toBe('THB');
    expect(currency('SCALINI RESTAURANT\nTRN 100072725300003\nSubtotal 2177.00\nVAT 5% 108.83\nAmount Due 2424.39')).toBe('AED');
    // a Mexican company form beside "$"
    expect(currency('CASA LEY, S.A. DE C.V.\nCD GLORIA TREVI $139.90\nTOTAL $321.96\nEFECTIVO $328.00')).toBe('MXN');
  });

  it('reads "SALES TAX" as a sign of the US, not a printing of its dollar: a Malaysian company keeps its ringgit', () => {
    expect(currency('Pizza Hut Restaurants Sdn Bhd\n019-6000350\nSUB TOTAL 39.00\nSALES TAX 1.95\nTOTAL 42.95')).toBe('MYR');
    // "Sdn Bhd" with its "hd" misread
    expect(currency('Pizze Hut Restaurants Sdn Bn\n019-6000350\nSUB TOTAL 39.00\nSALES TAX 1.95\nTOTAL 42.95')).toBe('MYR');
    expect(locale('Nashville Deli\nSUBTOTAL 39.00\nSales Tax 1.95\nTOTAL 42.95').countryCode).toBe('US');
    expect(currency('Nashville Deli\nSUBTOTAL 39.00\nSales Tax 1.95\nTOTAL USD 42.95')).toBe('USD');
  });

  it('reads an Indian GSTIN whose Z was read as a 2, and the service-tax registration number before it', () => {
    expect(currency('ARHAM RESTAURANT LLP\nSub Total 1774.00\nGrand Total : 1108\nGSTNO:27ABCFA5632P125')).toBe('INR');
    expect(currency('JAWED HABIB\nS.Tax : AJTPM7071RSD001\nGross Amount 5500.00\nNet Amount : 6325.00')).toBe('INR');
    // the same letters and digits without the "SD"/"ST" part are no registration
    expect(currency('JAWED HABIB\nRef : AJTPM7071RXX001\nGross Amount 5500.00\nNet Amount : 6325.00')).not.toBe('INR');
  });

  it('reads place names and tax words that OCR ran into the number after them ("Mumbai400013", "TVA20%")', () => {
    expect(locale('ARHAM RESTAURANT\nLower Parel (W), Mumbai400013\nGrand Total 1108').countryCode).toBe('IN');
    expect(locale('RESTAURANT SALINE\nTVA20% 1.00\nTVA10% 4.00\nMercide votre visite').countryCode).toBe('FR');
    // the euro's word run into the total's label
    expect(currency('RESTAURANTSALINE\nTOTALEURO 50.00\nRESTEAPAVER 50.00')).toBe('EUR');
    // a code whose letters and digits belong together still reads as one (the GSTIN above is not split apart)
    expect(locale('Food Total 245.00\nGST NO.-30ABNPS1185Q1Z2').countryCode).toBe('IN');
  });

  it('ungluing stays linear in the text: a 400,000-letter run, ending in a digit or not, is read in well under a second', () => {
    expect(unglued('Mumbai400013 TVA20% RM9.90 AB1')).toBe('Mumbai 400013 TVA 20% RM9.90 AB1');
    for (const text of ['A'.repeat(400_000), `${'A'.repeat(400_000)}1`]) {
      const t = performance.now();
      expect(unglued(text).length).toBe(text.length + (text.endsWith('1') ? 1 : 0));
      locale(text);
      expect(performance.now() - t).toBeLessThan(1000);
    }
  });

  it('reads a VAT number of 7 or 8 digits and a letter as euro, and a "Kuala ..." place as Malaysia', () => {
    expect(currency('FISH TAVERN\nVAT REG.NO 10125917F\nSUBTOTAL 26.50\nTOTAL 28.50')).toBe('EUR');
    // a British VAT number (9 digits, no letter) is not it
    expect(currency('FISH TAVERN\nVAT REG NO 123 4567 89\nSUBTOTAL 26.50\nTOTAL 28.50')).not.toBe('EUR');
    expect(currency('RSH SENTRA\nKuala Lumpur\nDISC. 20.00% 39.50\nTotal: 159.20')).toBe('MYR');
    expect(currency('RSH SENTRA\nKuala Lug, SERGE\nTotal: 159.20')).toBe('MYR');
  });

  it('reads a Brunei company, "(B) Sdn Bhd", as Brunei beside a bare "$", and "(M) Sdn Bhd" as Malaysia', () => {
    expect(currency('Jollibee\nEntrek (B) Sdn.Bhd.\nSubtotal: 3.70\nTotal 3.70\nCASH $10.00')).toBe('BND');
    expect(currency('AEON CO. (M) SDN BHD\nSubtotal: 3.70\nTotal 3.70')).toBe('MYR');
  });

  it('reads Vietnamese printed without its marks ("Nghia", "District 1") as Vietnam beside whole-dong amounts', () => {
    const page = 'HIGHLANDS COFFEE\n92 Nam Ky Khoi Nghia, District 1, HOHC\nCoffee 29,000\nJuice 19,000\nSub-total 48,000\nTotal 48,000\nCash 48,000';
    expect(currency(page)).toBe('VND');
    // the same amounts with no Vietnamese word: the whole-unit groups alone stay Indonesia's
    expect(currency(page.replace('92 Nam Ky Khoi Nghia, District 1, HOHC', 'Main Street'))).toBe('IDR');
    // an English "District" without its number is no place
    expect(locale('Central District Library\nTotal 12.50').countryCode).not.toBe('VN');
  });

  it('reads Singapore\'s own towns and districts beside a bare "$"', () => {
    expect(currency('97 Tanjong Pagar Rd\nFish Head $28.30\nSUBTOTAL $87.30\nTOTAL $102.75')).toBe('SGD');
    expect(currency('Fish Head $28.30\nSUBTOTAL $87.30\nTOTAL $102.75')).toBe('USD');
    // "TOTAL CHANGI" is OCR's "TOTAL CHANGE", no place
    expect(locale('TOTAL CHANGI Rp 24.000').countryCode).not.toBe('SG');
  });

  it('reads places: a city, a state by its name, a city and state in capitals', () => {
    expect(locale('Aqua Shard\nLevel 31 The Shard\n31 St. Thomas St. London\nVAT Reg: 142 440 545\nTotal 40.50').countryCode).toBe('GB');
    expect(currency('Aqua Shard\n31 St. Thomas St. London\nVAT Reg: 142 440 545\nTotal 40.50')).toBe('GBP');
    expect(currency('GULUM Restaurant\nKortumstr. 20\n44787 Bochum\nNETTO 17,14\nTOTAL 20,40')).toBe('EUR');
    // "NEW YORK NEW YORK 10012" outweighs one "£" (a misread "$") before a price
    expect(currency('SUPREME NY\n274 LAFAYETTE STREET\nNEW YORK NEW YORK 10012\nTENNIS BALLS £5.00\nSubtotal: 104.00\nRECEIPT TOTAL: 105.42')).toBe('USD');
    expect(currency('CVS/pharmacy\n4365 N ORACLE ROAD, TUCSON, AZ\nSUBTOTAL 18.88\nTOTAL 20.41')).toBe('USD');
    // a "TOTAL, IN" is no Indiana: codes that are English words are not read in capitals without a ZIP
    expect(locale('THANK YOU, COME IN\nTOTAL 20.41').countryCode).toBeUndefined();
  });

  it('reads the currency printed as a word or a kuna sign, not letters inside other numbers', () => {
    expect(currency('MERCADONA\nTOTAL EUROS 10,79\nENTREGA EUROS 10,79')).toBe('EUR');
    expect(currency('Bugenvilla\nUKUPNO kn 290,00\nDatum: 19.09.2014')).toBe('HRK');
    // "Kn" in a Vietnamese line is not the kuna
    expect(currency('Hien Bac Kn 35\nHa Noi\nTong tien 54,000\nTien mat 100,000')).not.toBe('HRK');
    // a telephone's "319-5€67" is a misread digit, not a euro
    expect(locale('MICHAELS STORE\n(770)319-5€67\nSUBTOTAL 4.00\nTOTAL 4.24').printedCurrency).toBeUndefined();
    // a vanity telephone number's letters are not the dirham's code
    expect(currency('AEON CO. (M) BHD\nJALAN JEJAKA, TAMAN MALURI\nCHERAS, 55100 KUALA LUMPUR\nGST ID : 002017304668\nTotal 75.00\nTEL 1-300-80-AEON (2366)\nTEL 1-300-80-AED')).toBe('MYR');
  });

  it('keeps a sure country\'s own currency against bare signs, and gives whole-unit amounts to the country the page names', () => {
    const indo = 'JL. PAHLAWAN, BULELENG\nHARGA JUAL 78,500\nTOTAL 78,500\nTUNAI 100,000\nKEMBALI 21,500\nPPN 2,824\nLAYANAN KONSUMEN £0.10\nGea. £48.00';
    const l = locale(indo);
    expect(l.countryCode).toBe('ID');
    expect(l.countryConfidence).toBeGreaterThanOrEqual(0.9);
    expect(l.currency).toBe('IDR');
    // Vietnamese amounts grouped by thousands on a page that names Ha Noi: dong, not rupiah
    const vn = locale('Co.op Food\nTp Ha Noi\nSua tuoi 6.750\nTong tien hang 54,000\nTien khach dua 100,000');
    expect(vn.countryCode).toBe('VN');
    expect(vn.currency).toBe('VND');
    // with no other cue, such amounts still read as rupiah (as before)
    expect(locale('Boba 16,000\nTotal 32,000\nCash 50,000').currency).toBe('IDR');
    // ungrouped whole amounts in hundreds, and no amount in cents: the same
    expect(locale('Boba Sundae 16000 1 16000\nTotal amount 32000\nCash 50000\nChange 18000\n2022-06-22 17:02:32').currency).toBe('IDR');
    expect(locale('Coffee 1500\nTotal 3000\nCash 5000.00\nChange 2000.00').currency).toBe('');
  });
});

describe('how sure the currency is when the page prints none', () => {
  const conf = (text: string) => extractFields(documentFromText(text), {}).currencyCode;
  it('a sure country told by its place settles its own currency (up to 0.95); signs or amounts alone do not', () => {
    const placed = conf('JL. PAHLAWAN, BULELENG\nKOTA DENPASAR\nHARGA JUAL 78.500\nTOTAL 78.500\nTUNAI 100.000\nKEMBALI 21.500\nPPN 2.824');
    expect(placed?.value).toBe('IDR');
    expect(placed!.confidence).toBeGreaterThanOrEqual(0.9);
    // known from how its amounts are printed only: a guess, below 0.9
    const grouped = conf('Boba 16,000\nTotal 32,000\nCash 50,000');
    expect(grouped?.value).toBe('IDR');
    expect(grouped!.confidence).toBeLessThan(0.9);
    // pound signs alone: below 0.9 (symbol-only)
    const signs = conf('TEA £2.00\nCAKE £3.00\nTotal £5.00');
    expect(signs?.value).toBe('GBP');
    expect(signs!.confidence).toBeLessThan(0.9);
  });
  it('reads a page printing both "€" and "£" beside amounts as euro, tesseract having read some "€" as "£"', () => {
    const mixed = locale('TOWER\nKELLS\n2 MAIN COURSE £20.00\n2 TEA €3.00\nTotal £28.00\nCASH €28.00');
    expect(mixed.currency).toBe('EUR');
    expect(mixed.evidence).toContain('pounds-read-for-euros');
    // pounds alone, or a stray "€" that is no price, stay pounds
    expect(currency('TEA £2.00\nCAKE £3.00\nTotal £5.00')).toBe('GBP');
    expect(currency('TEA £2.00\nCAKE £3.00\nTotal £5.00\nprices in € on request')).toBe('GBP');
  });
});
