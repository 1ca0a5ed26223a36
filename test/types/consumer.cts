// A strict CommonJS consumer: require() through the "require" condition of "exports".
import kit = require('receiptkit-ocr');

export async function merchant(file: string): Promise<string> {
  const r = await kit.extract(file);
  return r.merchantName.data !== undefined ? r.merchantName.data.toUpperCase() : '';
}
