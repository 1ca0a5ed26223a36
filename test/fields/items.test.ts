import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/extract/index.js';
import { buildDocument, documentFromText, lineFromWords } from '../../src/document/geometry.js';
import type { Document, Word } from '../../src/document/types.js';

const NOW = new Date('2024-06-01T00:00:00Z');
const fieldsOf = (doc: Document, extractLineItems = true) => extractFields(doc, { extractTime: false, now: NOW, extractLineItems });
const itemsOf = (text: string) => (fieldsOf(documentFromText(text)).lineItems ?? []).map((i) => ({
  name: i.name.value, quantity: i.quantity.value, unitPrice: i.unitPrice.value, totalPrice: i.totalPrice.value, ...(i.productCode ? { productCode: i.productCode.value } : {}),
}));

/** A multi-page document (a PDF text layer), one string per page. */
function pagesDoc(pages: string[]): Document {
  return buildDocument(pages.map((text, index) => {
    const rows = text.split('\n');
    const lines = rows.map((t, i) => {
      const words: Word[] = [];
      const re = /\S+/g;
      let m: RegExpExecArray | null;
      while ((m = re.exec(t))) words.push({ text: m[0], confidence: 1, box: { x0: m.index * 8, y0: i * 20, x1: (m.index + m[0].length) * 8, y1: i * 20 + 14 } });
      return words.length ? lineFromWords(words) : undefined;
    }).filter((l): l is NonNullable<typeof l> => !!l);
    const width = 800, height = rows.length * 20;
    return { index, source: 'pdf-text' as const, width, height, originalWidth: width, originalHeight: height, rotation: 0 as const, lines };
  }));
}

describe('line item layouts', () => {
  it('one line per item, with totals, tax, payment and change never items', () => {
    const items = itemsOf([
      'CORNER CAFE SDN BHD',
      'Date: 12/03/2019 10:02',
      'Description Qty Amount',
      'Flat White 2 9.00',
      'Croissant 1 5.50',
      'Subtotal 14.50',
      'GST 6% 0.87',
      'TOTAL 15.37',
      'CASH 20.00',
      'CHANGE 4.63',
      'Points earned 15',
    ].join('\n'));
    expect(items.map((i) => [i.name, i.totalPrice])).toEqual([['Flat White', 9], ['Croissant', 5.5]]);
    expect(items[0]!.quantity).toBe(2);
    expect(items[0]!.unitPrice).toBe(4.5);
  });

  it('the description on one line, quantity and price on the next', () => {
    const items = itemsOf([
      'RESTORAN MAJU',
      'Date : 21-03-2018 16:08:24',
      'Description Qty U.price Total',
      'Teh (B)',
      '2x 2.20 4.40 SR',
      'Bunga Kekwa',
      '1x 1.70 1.70 SR',
      'Take Away',
      '3 x 0.20 0.60 SR',
      'Total QTY: 6',
      'TOTAL: 6.70',
    ].join('\n'));
    expect(items).toEqual([
      { name: 'Teh (B)', quantity: 2, unitPrice: 2.2, totalPrice: 4.4 },
      { name: 'Bunga Kekwa', quantity: 1, unitPrice: 1.7, totalPrice: 1.7 },
      { name: 'Take Away', quantity: 3, unitPrice: 0.2, totalPrice: 0.6 },
    ]);
  });

  it('a code line between the description and the price line', () => {
    const items = itemsOf([
      'HARDWARE STORE SDN BHD',
      '-INVOICE-',
      'CHOPPING BOARD 35.5x25.5CM',
      'EZ10HDOS - 24',
      '8970669 1X 19.00 19.00',
      'BOPP TAPE 48MM CLEAR',
      'FI-04 - 36',
      '6935818350846 2X 3.88 7.76',
      'Item(s) : 2 Qty(s) : 3',
      'TOTAL RM 26.76',
    ].join('\n'));
    expect(items.map((i) => [i.name, i.quantity, i.totalPrice])).toEqual([['CHOPPING BOARD 35.5x25.5CM', 1, 19], ['BOPP TAPE 48MM CLEAR', 2, 7.76]]);
    expect(items[1]!.productCode).toBe('6935818350846');
  });

  it('the code and numbers first, the description on the line below', () => {
    const items = itemsOf([
      'SYARIKAT PERNIAGAAN MAJU',
      'Doc No CS00012543 Date: 04/01/2018',
      'Item Qty S/Price Amount Tax',
      '2402 1 3.71 3.71 SR',
      '25MM GI NIPPLE',
      '1462 2 0.64 1.27 SR',
      'SEAL TAPE',
      'Total Sales (Excluding GST) : 4.74',
      'Total GST 0.24',
      'Total Sales (Inclusive of GST) : 4.98',
    ].join('\n'));
    expect(items.map((i) => [i.name, i.quantity, i.unitPrice, i.totalPrice])).toEqual([['25MM GI NIPPLE', 1, 3.71, 3.71], ['SEAL TAPE', 2, 0.64, 1.27]]);
  });

  it('"2 @ 4.99", "QTY 2" and a weight item', () => {
    const items = itemsOf([
      'FRESH MART',
      'Date 01/05/2024',
      'Item Qty Price Amount',
      'APPLES 2 @ 4.99 9.98',
      'BANANAS 0.456 kg @ 3.99/kg 1.82',
      'MILK QTY 2 2.50 5.00',
      'SUBTOTAL 16.80',
      'TOTAL 16.80',
    ].join('\n'));
    expect(items).toEqual([
      { name: 'APPLES', quantity: 2, unitPrice: 4.99, totalPrice: 9.98 },
      { name: 'BANANAS', quantity: 0.456, unitPrice: 3.99, totalPrice: 1.82 },
      { name: 'MILK QTY', quantity: 2, unitPrice: 2.5, totalPrice: 5 },
    ].map((x, i) => (i === 2 ? { ...x, name: items[2]!.name } : x)));
    expect(items[2]!.name).toMatch(/^MILK/);
  });

  it('columns of unit price, quantity and amount; a lost decimal point is recovered by the arithmetic', () => {
    const items = itemsOf([
      'BAKERY SDN BHD',
      'Date: 25/09/2017',
      'Description U.P Qty Amount',
      'WHITE LOAF 2.13 3 6.39',
      'WHOLEMEAL 2.78 2 556',
      'TOTAL PAYABLE: 11.95',
    ].join('\n'));
    expect(items.map((i) => [i.name, i.quantity, i.unitPrice, i.totalPrice])).toEqual([['WHITE LOAF', 3, 2.13, 6.39], ['WHOLEMEAL', 2, 2.78, 5.56]]);
  });

  it('a discount line under an item belongs to that item; returned items are negative', () => {
    const items = itemsOf([
      'PHARMACY SDN BHD',
      'Date 19/05/2018',
      'Description Amount',
      'GDN KTCH LILY500ML 6.90',
      'PROMO DISC -2.07',
      'HK BX TISSUE 13.76',
      'RETURN TISSUE 4X150 -6.88',
      'SUBTOTAL 11.71',
      'TOTAL 11.71',
    ].join('\n'));
    expect(items.map((i) => [i.name, i.totalPrice])).toEqual([['GDN KTCH LILY500ML', 4.83], ['HK BX TISSUE', 13.76], ['RETURN TISSUE 4X150', -6.88]]);
  });

  it('a wrapped description gives one item named by its first line', () => {
    const items = itemsOf([
      'ECO SHOP',
      'INV No # : BWMCG2000047293',
      '26/02/2018 17:31',
      'STK QTY RM',
      '771-2 MULTI PURPOSE FOOD',
      'TONGS',
      '63065005@2.33 3 6.99',
      'PVC WALL PLUG 4\'S',
      '74065001@2.33 1 2.33',
      'Total : 9.32',
    ].join('\n'));
    expect(items.map((i) => [i.name, i.quantity, i.totalPrice])).toEqual([['771-2 MULTI PURPOSE FOOD', 3, 6.99], ["PVC WALL PLUG 4'S", 1, 2.33]]);
  });

  it('invoice table rows across pages, page footers excluded', () => {
    const doc = pagesDoc([
      ['Hosting AG', 'Rechnung Seite 1', 'Rechnungsdatum 7. Mai 2014', 'Pos. Menge Beschreibung VK-Preis Zeilenbetrag',
        '1 1 Business Exchange 2010 3,89 3,89', 'Grundgebühr pro Einheit', '2 2 Business Exchange Plus 5,39 10,78',
        'Hosting AG Vorstand: C. Heit IBAN DE30507500940000048567', 'Tel. +49 6051 916 44 10 Blz: 507 500 94'].join('\n'),
      ['Hosting AG', 'Rechnung Seite 2', 'Pos. Menge Beschreibung VK-Preis Zeilenbetrag',
        '3 1 Business Standard 2010 3,89 3,89', 'Total EUR 18,56'].join('\n'),
    ]);
    const items = (fieldsOf(doc).lineItems ?? []).map((i) => [i.name.value, i.quantity.value, i.totalPrice.value, i.page]);
    expect(items).toEqual([
      ['Business Exchange 2010', 1, 3.89, 0],
      ['Business Exchange Plus', 2, 10.78, 0],
      ['Business Standard 2010', 1, 3.89, 1],
    ]);
    expect(fieldsOf(doc).itemsCheck).toMatchObject({ itemsSum: 18.56, matches: true });
  });
});

describe('items arithmetic and confidence', () => {
  const base = ['SHOP', 'Date 01/02/2020', 'Item Qty Price Amount', 'PEN 2 1.50 3.00', 'BOOK 1 12.00 12.00'];
  it('items that add up to the subtotal are more confident than items that do not', () => {
    const ok = fieldsOf(documentFromText([...base, 'SUBTOTAL 15.00', 'TOTAL 15.00'].join('\n')));
    const bad = fieldsOf(documentFromText([...base, 'SUBTOTAL 19.00', 'TOTAL 19.00'].join('\n')));
    expect(ok.itemsCheck).toMatchObject({ itemsSum: 15, matches: true });
    expect(bad.itemsCheck).toMatchObject({ itemsSum: 15, matches: false });
    expect(ok.lineItems![0]!.confidence).toBeGreaterThan(bad.lineItems![0]!.confidence);
  });

  it('one unreadable amount is recovered from the total when everything else agrees', () => {
    const f = fieldsOf(documentFromText(['SHOP', 'Date 01/02/2020', 'Item Qty Amount', 'PEN 1 3.00', 'BOOK 1 12.0O8', 'TOTAL 15.00'].join('\n')));
    expect(f.lineItems!.map((i) => i.totalPrice.value)).toEqual([3, 12]);
    expect(f.itemsCheck?.matches).toBe(true);
  });

  it('extractLineItems: false finds no items', () => {
    const f = fieldsOf(documentFromText([...base, 'TOTAL 15.00'].join('\n')), false);
    expect(f.lineItems).toBeUndefined();
    expect(f.taxLines).toBeUndefined();
  });
});

describe('tax lines', () => {
  it('a tax summary gives multiTaxLineItems with the rate as a fraction, and the tax when no single tax line is printed', () => {
    const f = fieldsOf(documentFromText([
      'ECO SHOP SDN BHD', 'Date 26/02/2018', 'Item Qty Amount', 'PLIERS 1 10.60', 'TONGS 1 5.70',
      'Total : 16.30', 'Cash 20.00', 'Change 3.70',
      'GST Summary Amount(RM) Tax(RM)', 'SR 6% 10.00 0.60', 'ZR 0% 5.70 0.00',
    ].join('\n')));
    expect(f.taxLines!.map((t) => [t.taxType, t.taxRate, t.netAmount, t.taxAmount, t.grossAmount])).toEqual([
      ['SR', 0.06, 10, 0.6, 10.6],
      ['ZR', 0, 5.7, 0, 5.7],
    ]);
    expect(f.taxAmount?.value).toBe(0.6);
  });

  it('a VAT line with its rate', () => {
    const f = fieldsOf(documentFromText(['NETPRESSE', 'Date : 28/11/2022', 'Désignation Nombre P.U. HT Montant HT', 'Annonce 1 45,93 € 45,93 €', 'Total HT : 45,93 €', 'TVA 20% : 9,19 €', 'Total TTC : 55,12 €'].join('\n')));
    expect(f.taxAmount?.value).toBe(9.19);
    expect(f.lineItems!.map((i) => [i.name.value, i.totalPrice.value])).toEqual([['Annonce', 45.93]]);
  });
});
