import type { LanguageVocabulary } from '../types.js';

/**
 * Vietnamese. Months and weekdays are printed as numbers on receipts ("Ngày 15/08/2020", "Thứ 2"), so
 * there are no month or weekday names here; chrono-node's `vi` locale parses the rest. The cues are
 * the words a Vietnamese receipt prints around its amounts, accent-free as the canonical text folds
 * them ("Tổng tiền" -> TONG TIEN, "Hóa đơn" -> HOA DON).
 */
export const vi: LanguageVocabulary = {
  code: 'vi',
  country: 'VN',
  chrono: 'vi',
  months: {},
  weekdays: {},
  cues: ['HOA DON', 'BAN HANG', 'TONG TIEN', 'TONG CONG', 'THANH TIEN', 'THANH TOAN', 'DON GIA', 'SO LUONG', 'TIEN MAT',
    'KHACH HANG', 'QUY KHACH', 'CAM ON', 'HEN GAP LAI', 'THU NGAN', 'NHAN VIEN', 'DIA CHI', 'TIEN KHACH', 'TRA LAI', 'PHIEU',
    'TONG SO', 'TIEN THUA', 'TIEN HANG', 'MA SO THUE', 'NGAY BAN', 'GIAM GIA', 'CHIET KHAU', 'DVT'],
  taxWords: ['GTGT', 'THUE'],
  labels: [
    { role: 'quantity', strength: 1, phrases: ['TONG SO LUONG', 'TONG SL', 'SO LUONG', 'TONG SO(?! TIEN| THANH TOAN)', 'SO MAT HANG'] },
    // "Tiền thừa", "Tiền trả lại", "Tiền thối": the change given back
    { role: 'change', strength: 2, phrases: ['TIEN THUA', 'TIEN TRA LAI', 'TRA LAI KHACH', 'TRA LAI', 'TIEN THOI', 'THOI LAI', 'TIEN TRA KHACH'] },
    // "Tiền khách trả", "Khách đưa", "Tiền mặt": what the customer handed over
    { role: 'paid', strength: 1.8, phrases: ['TIEN KHACH TRA', 'TIEN KHACH DUA', 'KHACH THANH TOAN', 'KHACH TRA', 'KHACH DUA', 'TIEN MAT', 'THE NGAN HANG'] },
    { role: 'discount', strength: 2, phrases: ['CHIET KHAU', 'GIAM GIA', 'KHUYEN MAI', 'TIEN GIAM'] },
    { role: 'tax', strength: 2.2, phrases: ['THUE GTGT', 'TIEN THUE', 'THUE VAT'] },
    { role: 'subtotal', strength: 2, phrases: ['TONG TIEN HANG', 'TIEN HANG(?! SAU)', 'TONG TIEN TRUOC THUE', 'TONG GIA GOC'] },
    // "Tổng tiền thanh toán", "Khách phải trả": the amount to pay
    { role: 'total', strength: 3.5, final: true, phrases: ['TONG TIEN THANH TOAN', 'TONG TIEN PHAI THANH TOAN', 'TONG TIEN PHAI TRA', 'TONG THANH TOAN', 'TONG SO THANH TOAN', 'TIEN THANH TOAN', 'PHAI THANH TOAN', 'CAN THANH TOAN', 'KHACH PHAI TRA', 'TONG PHAI TRA', 'THANH TOAN'] },
    { role: 'total', strength: 3, phrases: ['TONG SO TIEN', 'TONG TIEN', 'TONG CONG TIEN', 'TONG CONG', 'CONG TIEN(?! HANG)'] },
    // "Cộng tiền hàng": the goods summed, the total where no tax or payable line follows (a later final total supersedes it)
    { role: 'total', strength: 2.2, phrases: ['CONG TIEN HANG'] },
  ],
};
