import { table } from '../types.js';
import type { LanguageVocabulary } from '../types.js';

export const id: LanguageVocabulary = {
  code: 'id',
  chrono: 'id',
  months: table([1, 'januari'], [2, 'februari', 'pebruari', 'peb'], [3, 'maret'], [4, 'april'], [5, 'mei'], [6, 'juni'], [7, 'juli'],
    [8, 'agustus', 'agu', 'ags', 'agt', 'agus'], [9, 'september'], [10, 'oktober', 'okt', 'okto'], [11, 'november', 'nop', 'nopember'], [12, 'desember', 'des']),
  weekdays: table([0, 'minggu'], [1, 'senin'], [2, 'selasa'], [3, 'rabu'], [4, 'kamis'], [5, 'jumat', "jum'at"], [6, 'sabtu']),
  cues: ['TUNAI', 'KEMBALI', 'KEMBALIAN', 'BELANJA', 'HARGA', 'KASIR', 'TERIMA KASIH', 'PEMBAYARAN', 'BAYAR', 'PESANAN', 'PELANGGAN', 'TANGGAL'],
  taxWords: ['PPN', 'PB1', 'PAJAK'],
};
