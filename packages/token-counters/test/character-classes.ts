/**
 * Seeded text generators, one per class of characters: every kind of whitespace, control
 * characters, the major scripts, combining marks, astral characters (rare CJK, emoji sequences,
 * mathematical letters, rare scripts), digits, punctuation, random-looking runs and repeated
 * characters. The heuristic counter's documented bound is checked on each of them, at several
 * lengths, against the exact `o200k_base` count. Like the kinds in `corpora.ts`, each generator
 * returns exactly `size` UTF-16 code units, the same string for the same `(size, seed)`.
 *
 * Code points are drawn from explicit ranges that every Unicode version since 13.0 assigns in
 * full, so the strings do not depend on the Unicode data of the running Node.
 */
import { type SeededRandom, seededRandom } from '@ctxkit/context-core/testing';
import { CORPORA, type CorpusGenerator, fill } from './corpora.js';

// --- vocabularies (before the table, which reads them when the module loads) ---

const EMOJI_SEQUENCES = [
  '👨‍👩‍👧‍👦',
  '👩‍👩‍👦',
  '👩‍💻',
  '🧑‍🚀',
  '👨🏽‍⚕️',
  '🏳️‍🌈',
  '🏳️‍⚧️',
  '❤️‍🔥',
  '🐻‍❄️',
  '👍🏻',
  '👍🏿',
  '🙋🏾‍♀️',
  '🤦🏼‍♂️',
  '🧑🏻‍🤝‍🧑🏿',
  '1️⃣',
  '#️⃣',
  '🏴󠁧󠁢󠁥󠁮󠁧󠁿',
  '👁️‍🗨️',
];

const FLAGS = Array.from(
  ['US', 'FR', 'DE', 'JP', 'CN', 'GB', 'BR', 'IN', 'KR', 'UA', 'NG', 'MX', 'SE', 'ZA', 'AR'],
  (code) => String.fromCodePoint(...Array.from(code, (letter) => 0x1f1a5 + letter.charCodeAt(0))),
);

const ACCENTED_LATIN_WORDS = `
  le la les de des et à un une est dans pour pas que qui sur avec été français où déjà très après
  première système données réponse mémoire être même élève café déjà fenêtre hôpital château
  der die das und ist nicht für über größe Straße Mädchen können wählen Schlüssel Grüße Tür
  schön natürlich Fußball Gebäude el la los que en es por también está información según corazón
  niño año mañana después aquí más canción sí árbol pequeño compañía
`;

const CENTRAL_EUROPEAN_WORDS = `
  a je se na v že to s z do jsem jako ale pro když který být už jen však který příliš žluťoučký
  kůň úpěl ďábelské ódy řeč čeština místo dětí zpráva soubor paměť výsledek proměnná chyba
  i w nie się na że z do to jest jak ale po co tak już przez może który są będzie gdzie również
  źródło żółć gęś jaźń pamięć wiadomość wynik zmienna błąd łódź mówić dziękuję proszę
`;

const VIETNAMESE_WORDS = `
  và của là có không một những được cho người trong này đã với các để đến khi thì từ nhiều năm
  ngày thế giới hệ thống dữ liệu tin nhắn mô hình ngữ cảnh bộ nhớ ngôn ngữ thành phố nhà nước sách
  trường học chính phủ công ty việc thời gian mới lớn nhỏ quan trọng xin chào cảm ơn Việt Nam tiếng
`;

const RUSSIAN_WORDS = `
  и в не на я быть он с что а по это она этот к но они мы как из у который то за свой весь год от
  так о для ты же все тот мочь вы человек такой его сказать только или ещё бы себя один уже до
  время если сам когда другой вот говорить наш мой знать стать при чтобы дело жизнь кто первый
  очень два день её новый рука даже раз где там под можно ну какой после их работа без самый
  потом надо хотеть ли слово идти большой должен место иметь система данные сообщение контекст
  модель токен бюджет история ответ запрос память ошибка файл значение пользователь
`;

const GREEK_WORDS = `
  και το να η ο σε του με για που την της τα είναι δεν θα από στο ένα μια στην αλλά ότι πολύ αυτό
  όταν ήταν έχει χρόνια άνθρωποι κόσμος ημέρα σύστημα δεδομένα μήνυμα μοντέλο ιστορία απάντηση
  μνήμη γλώσσα πόλη σπίτι νερό θάλασσα ελληνικά καλημέρα ευχαριστώ σφάλμα αρχείο χρήστης τιμή
`;

const ARABIC_WORDS = `
  في من على أن إلى هذا التي الذي عن مع كان هو هي ما لا كل بين أو قد ذلك هذه بعد عند كانت عام يوم
  الناس العالم النظام البيانات الرسالة النموذج السياق الذاكرة اللغة المدينة البيت الماء الكتاب
  المدرسة الحكومة الشركة العمل الوقت جديد كبير صغير مهم شكرا مرحبا الملف المستخدم الخطأ القيمة
`;

const HEBREW_WORDS = `
  של את על זה לא הוא היא עם כל אני גם או אבל מה יש היה כי הם אם רק בין אחרי לפני יותר מאוד שנה
  יום אנשים עולם מערכת נתונים הודעה מודל הקשר זיכרון שפה עיר בית מים ספר ממשלה חברה עבודה זמן
  חדש גדול קטן חשוב שלום תודה קובץ משתמש שגיאה ערך
`;

const HINDI_WORDS = `
  और का के की है में को से यह एक पर भी नहीं था हैं कि जो कर ने लिए गया तो हो किया रहा साथ बहुत
  अपने दिन साल लोग दुनिया प्रणाली डेटा संदेश मॉडल संदर्भ स्मृति भाषा शहर घर पानी किताब विद्यालय
  सरकार कंपनी काम समय नया बड़ा छोटा महत्वपूर्ण नमस्ते धन्यवाद फ़ाइल उपयोगकर्ता त्रुटि मान
`;

const THAI_WORDS = `
  ที่ และ การ ของ ใน มี ไม่ เป็น ได้ ให้ ว่า จะ กับ นี้ คน แล้ว ก็ มา ไป อยู่ ความ เรา เขา วัน ปี
  โลก ระบบ ข้อมูล ข้อความ โมเดล บริบท หน่วยความจำ ภาษา เมือง บ้าน น้ำ หนังสือ โรงเรียน รัฐบาล
  บริษัท งาน เวลา ใหม่ ใหญ่ เล็ก สำคัญ สวัสดี ขอบคุณ ประเทศ ไทย ไฟล์ ผู้ใช้ ข้อผิดพลาด ค่า
`;

const ARMENIAN_WORDS = `
  և է որ այդ մի նա ես դու մենք նրանք բայց համար հետ մեջ վրա երբ ինչ այս տարի օր մարդ աշխարհ
  համակարգ տվյալներ հաղորդագրություն լեզու քաղաք տուն ջուր գիրք դպրոց աշխատանք ժամանակ նոր մեծ
  փոքր կարևոր բարև շնորհակալություն
`;

const GEORGIAN_WORDS = `
  და არის რომ ეს ის მე შენ ჩვენ ისინი მაგრამ თუ როცა რა ეს წელი დღე ადამიანი სამყარო სისტემა
  მონაცემები შეტყობინება ენა ქალაქი სახლი წყალი წიგნი სკოლა მუშაობა დრო ახალი დიდი პატარა
  მნიშვნელოვანი გამარჯობა მადლობა საქართველო
`;

const KANA_WORDS = `
  ありがとう こんにちは わたし あなた これ それ あれ どこ なに いつ だれ ひと ともだち たべる
  のむ いく くる みる きく はなす よむ かく ある いる する なる おおきい ちいさい あたらしい
  ふるい たかい やすい きれい しずか は が を に で と の も から まで システム データ
  メッセージ サーバー ユーザー コンピューター インターネット プログラム ファイル テスト メモリ
  ネットワーク コーヒー テレビ カメラ レストラン ホテル タクシー バス アメリカ ヨーロッパ
`;

const TRADITIONAL_CHINESE_WORDS = `
  我們 這個 時間 問題 資料 系統 訊息 模型 歷史 對話 工具 輸出 預算 視窗 使用者 應該 還是 關於
  國家 發展 經濟 社會 文化 教育 電腦 網路 軟體 記憶體 請求 回應 服務 設定 執行 結果 確認 說明
  語言 學習 開始 繼續 完成 變數 函數 類型 物件 陣列 字串 非常 比較 特別 因為 所以 雖然 但是
  已經 沒有 自己 設計 實現 介面 策略 的 是 在 了 和 有 一個 不 可以 進行 需要 檔案 錯誤 數值
`;

/** The character classes, by the name the docs' table uses. */
export const CHARACTER_CLASSES = {
  // Whitespace: one run of the whole size, or words between runs of every length up to 2,000.
  spaces: repeated(' '),
  tabs: repeated('\t'),
  newlines: repeated('\n'),
  'CR LF pairs': repeated('\r\n'),
  'spaces and tabs alternating': repeated(' \t'),
  'mixed ASCII whitespace': randomRun(' \t\n\r\v\f'),
  'no-break spaces': repeated('\u00a0'),
  'ideographic spaces': repeated('\u3000'),
  'other Unicode spaces': randomRun(
    '\u0085\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\ufeff',
  ),
  'words between whitespace runs': wordsBetweenWhitespace,
  'indented code': indentedCode,
  'blank lines keeping their indentation': indentedBlankLines,
  // Control characters.
  'C0 controls': randomRun(`${codePointRange(0x00, 0x08)}${codePointRange(0x0e, 0x1f)}\u007f`),
  'C1 controls': randomRun(codePointRange(0x80, 0x9f)),
  // Scripts, as words of the language.
  English: CORPORA.english,
  'Latin with accents (French, German, Spanish)': sentences(words(ACCENTED_LATIN_WORDS)),
  'Latin with many accents (Czech, Polish)': sentences(words(CENTRAL_EUROPEAN_WORDS)),
  Vietnamese: sentences(words(VIETNAMESE_WORDS)),
  'Cyrillic (Russian)': sentences(words(RUSSIAN_WORDS)),
  Greek: sentences(words(GREEK_WORDS), { end: ['.', '.', ';'] }),
  Arabic: sentences(words(ARABIC_WORDS), { comma: '،', end: ['.', '.', '؟'] }),
  Hebrew: sentences(words(HEBREW_WORDS)),
  'Devanagari (Hindi)': sentences(words(HINDI_WORDS), { end: ['।', '।', '?'] }),
  Thai: sentences(words(THAI_WORDS), { separator: '', comma: ' ', end: [' ', ' ', '\n'] }),
  Armenian: sentences(words(ARMENIAN_WORDS), { end: ['։'] }),
  Georgian: sentences(words(GEORGIAN_WORDS)),
  Korean: CORPORA.korean,
  'Japanese kana': sentences(words(KANA_WORDS), { separator: '', comma: '、', end: ['。'] }),
  Japanese: CORPORA.japanese,
  'CJK, simplified Chinese': CORPORA.chinese,
  'CJK, traditional Chinese': sentences(words(TRADITIONAL_CHINESE_WORDS), {
    separator: '',
    comma: '，',
    end: ['。', '。', '？'],
  }),
  'CJK, rare characters (random, BMP)': randomRun(codePointRange(0x4e00, 0x9fa5)),
  'CJK Extension A (random)': randomRun(codePointRange(0x3400, 0x4db5)),
  'CJK Extension B to F (random, astral)': randomRun(
    codePointRange(0x20000, 0x2a6d6) +
      codePointRange(0x2a700, 0x2b734) +
      codePointRange(0x2b740, 0x2b81d) +
      codePointRange(0x2b820, 0x2cea1) +
      codePointRange(0x2ceb0, 0x2ebe0),
  ),
  'Hangul syllables (random)': randomRun(codePointRange(0xac00, 0xd7a3)),
  'rare scripts (astral: cuneiform, hieroglyphs, Gothic, Deseret)': randomRun(
    codePointRange(0x12000, 0x12399) +
      codePointRange(0x13000, 0x1342e) +
      codePointRange(0x10330, 0x1034a) +
      codePointRange(0x10400, 0x1044f),
  ),
  // Combining marks.
  'Zalgo text': zalgo,
  'decomposed accents (NFD French, Vietnamese)': normalized(
    sentences(words(`${ACCENTED_LATIN_WORDS} ${VIETNAMESE_WORDS}`)),
    'NFD',
  ),
  'decomposed Hangul (NFD Korean)': normalized(CORPORA.korean, 'NFD'),
  // Emoji and other astral symbols.
  'emoji in text': emojiInText,
  'emoji ZWJ sequences and skin tones': randomItems(EMOJI_SEQUENCES),
  flags: randomItems(FLAGS),
  'mathematical alphanumerics': mathematicalWords,
  'symbols (arrows, math, box drawing, dingbats)': randomRun(
    codePointRange(0x2190, 0x21ff) +
      codePointRange(0x2200, 0x22ff) +
      codePointRange(0x2500, 0x257f) +
      codePointRange(0x2700, 0x27bf),
  ),
  'full-width ASCII': randomRun(codePointRange(0xff01, 0xff5e)),
  'private use': randomRun(codePointRange(0xe000, 0xf8ff)),
  // Digits and punctuation.
  'digit runs': digitRuns('0123456789'),
  'full-width digits': digitRuns(codePointRange(0xff10, 0xff19)),
  'Arabic-Indic digits': digitRuns(codePointRange(0x660, 0x669)),
  'ASCII punctuation runs': punctuationRuns,
  // SeededRandom-looking runs and code.
  base64: CORPORA.base64,
  hex: CORPORA.hex,
  UUIDs: uuids,
  'alphanumeric ids': alphanumericIds,
  URLs: urls,
  'percent-encoded UTF-8': percentEncoded,
  'JSON unicode escapes': unicodeEscapes,
  'minified code': CORPORA['minified-js'],
  'JSON, pretty': CORPORA['json-pretty'],
  'JSON, minified': CORPORA['json-minified'],
  TypeScript: CORPORA.typescript,
  logs: CORPORA.logs,
  'numbers (CSV)': CORPORA.numbers,
  // Repeated characters.
  'repeated marks (=====, -----, ...)': repeatedRuns('=-*#~_.+/\\!?<>|'),
  'repeated letters and digits (aaaaa, 00000)': repeatedRuns('aeszAXZ019'),
  'repeated box drawing (━━━━, ════)': repeatedRuns('━═─│█…'),
  'repeated CJK and emoji (哈哈哈, 😂😂😂)': repeatedRuns('哈啊ー😂🔥'),
} as const satisfies Record<string, CorpusGenerator>;

/** The name of a character class. */
export type CharacterClassName = keyof typeof CHARACTER_CLASSES;

/**
 * Classes the heuristic counter's bound does not cover, with a looser bound of their own in the
 * docs: random strings of letters of an alphabet (not words of a language: the encoding holds
 * words, so random letters cost up to four times as much), and random printable ASCII with
 * symbols (generated passwords: no piece of it is a word or a usual mark).
 */
export const CLASSES_OUTSIDE_BOUND = {
  'random letters of alphabets (Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai)':
    randomWords([
      codePointRange(0x61, 0x7a),
      codePointRange(0x41, 0x5a),
      codePointRange(0x430, 0x44f),
      codePointRange(0x3b1, 0x3c9),
      codePointRange(0x627, 0x64a),
      codePointRange(0x5d0, 0x5ea),
      codePointRange(0x915, 0x939),
      codePointRange(0xe01, 0xe2e),
      codePointRange(0xe0, 0xff) + codePointRange(0x100, 0x17f),
    ]),
  'random printable ASCII (passwords)': randomRun(codePointRange(0x21, 0x7e)),
} as const satisfies Record<string, CorpusGenerator>;

// --- internal helpers ---

/** Every code point from `first` to `last`, as one string. */
function codePointRange(first: number, last: number): string {
  let text = '';
  for (let code = first; code <= last; code++) text += String.fromCodePoint(code);
  return text;
}

/** `unit` repeated to the size. */
function repeated(unit: string): CorpusGenerator {
  return (size) => fill(size, () => unit.repeat(64));
}

/** Characters drawn uniformly from `alphabet` (code points, not code units). */
function randomRun(alphabet: string): CorpusGenerator {
  const characters = Array.from(alphabet);
  return (size, seed = 1) => {
    const random = seededRandom(seed);
    return fill(size, () => random.pick(characters));
  };
}

/** Words of 2 to 10 letters drawn uniformly from one of `alphabets` each, between spaces. */
function randomWords(alphabets: readonly string[]): CorpusGenerator {
  const letters = alphabets.map((alphabet) => Array.from(alphabet));
  return (size, seed = 1) => {
    const random = seededRandom(seed);
    return fill(size, () => {
      const alphabet = random.pick(letters);
      let word = '';
      for (let count = random.integer(2, 10); count > 0; count--) word += random.pick(alphabet);
      return `${word} `;
    });
  };
}

/** Items drawn uniformly from `items`, back to back. */
function randomItems(items: readonly string[]): CorpusGenerator {
  return (size, seed = 1) => {
    const random = seededRandom(seed);
    return fill(size, () => random.pick(items));
  };
}

/** `generate`'s text in a Unicode normal form. */
function normalized(generate: CorpusGenerator, form: 'NFD'): CorpusGenerator {
  return (size, seed = 1) => fill(size, () => generate(size, seed).normalize(form));
}

/** Splits a whitespace-separated word list. */
function words(list: string): readonly string[] {
  return list.trim().split(/\s+/);
}

interface SentenceStyle {
  /** Between words: a space, or nothing in scripts written without spaces. */
  separator?: string;
  /** The script's comma. */
  comma?: string;
  /** The marks a sentence may end with. */
  end?: readonly string[];
}

/** Sentences of 4 to 14 words of a language, with its comma and full stop, now and then a number. */
function sentences(vocabulary: readonly string[], style: SentenceStyle = {}): CorpusGenerator {
  const { separator = ' ', comma = ',', end = ['.'] } = style;
  return (size, seed = 1) => {
    const random = seededRandom(seed);
    return fill(size, () => {
      let sentence = '';
      const count = random.integer(4, 14);
      for (let index = 0; index < count; index++) {
        if (index > 0) sentence += random.chance(0.1) ? `${comma} ` : separator;
        sentence += random.chance(0.03)
          ? String(random.integer(1, 2025))
          : random.pickSkewed(vocabulary);
      }
      return `${sentence}${random.pick(end)}${random.chance(0.15) ? '\n' : ' '}`;
    });
  };
}

/** English words between whitespace runs of every kind and of 1 to 2,000 characters. */
function wordsBetweenWhitespace(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const kinds = [' ', '\t', '\n', '\r\n', ' \t', '\u00a0', '\u3000', ' \n'];
  return fill(size, () => {
    const length = Math.floor(2000 ** random.next());
    let run = '';
    if (random.chance(0.5)) run = random.pick(kinds).repeat(length);
    else for (let index = 0; index < length; index++) run += random.pick(kinds);
    return `${run.slice(0, length)}${random.pick(['word', 'x', 'value;', '42', '}'])}`;
  });
}

/** Lines of code indented with spaces, tabs or both, up to 24 levels deep, and blank lines. */
function indentedCode(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const statements = ['return value;', '}', 'if (done) {', 'count += 1;', '<div>', '- item'];
  return fill(size, () => {
    const depth = random.integer(0, 24);
    const indent = random.pick(['  ', '    ', '\t', '\t  ']).repeat(depth);
    const trailing = random.chance(0.2) ? ' '.repeat(random.integer(1, 8)) : '';
    return `${indent}${random.pick(statements)}${trailing}${random.chance(0.2) ? '\n\n' : '\n'}`;
  });
}

/**
 * Runs of 1 to 40 blank lines that keep an indentation of tabs, spaces or a tab and spaces, then a
 * line of code.
 */
function indentedBlankLines(size: number, seed = 1): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const indent = random.pick(['\t', '\t\t', '  ', '   ', '    ', '        ', '\t  ']);
    const lineBreak = random.chance(0.8) ? '\n' : '\r\n';
    return `${`${indent}${lineBreak}`.repeat(random.integer(1, 40))}${indent}return value;${lineBreak}`;
  });
}

/** English words with one to a dozen combining marks on every letter, as in Zalgo text. */
function zalgo(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const marks = Array.from(codePointRange(0x300, 0x36f));
  return fill(size, () => {
    let word = '';
    for (const letter of random.pick([
      'hello',
      'world',
      'the',
      'context',
      'window',
      'is',
      'full',
    ])) {
      word += letter;
      for (let count = random.integer(1, 12); count > 0; count--) word += random.pick(marks);
    }
    return `${word} `;
  });
}

/** English words with emoji between them, now and then several in a row. */
function emojiInText(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const emoji = [
    ...Array.from(codePointRange(0x1f600, 0x1f64f)),
    ...Array.from(codePointRange(0x1f680, 0x1f6c5)),
    ...['👍', '👀', '🎉', '✅', '❌', '🔥', '❤️', '⭐', '🚀', '💡'],
  ];
  return fill(size, () => {
    let piece = `${random.pick(['great', 'done', 'see', 'thanks', 'ok', 'the build'])} `;
    for (let count = random.integer(1, 4); count > 0; count--) piece += random.pick(emoji);
    return `${piece} `;
  });
}

/** Styled words of mathematical alphanumerics (bold, sans-serif, monospace, ...) and digits. */
function mathematicalWords(size: number, seed = 1): string {
  const random = seededRandom(seed);
  // Alphabets without holes: bold, bold italic, bold script, bold fraktur, the four sans-serif
  // ones and monospace, each 26 capitals then 26 small letters.
  const alphabets = [
    0x1d400, 0x1d468, 0x1d4d0, 0x1d56c, 0x1d5a0, 0x1d5d4, 0x1d608, 0x1d63c, 0x1d670,
  ];
  return fill(size, () => {
    const start = random.pick(alphabets);
    const word = random.pick(['Hello', 'world', 'Bold', 'text', 'styled', 'ANNOUNCEMENT', 'x2']);
    let styled = '';
    for (const character of word) {
      const code = character.charCodeAt(0);
      if (code >= 97) styled += String.fromCodePoint(start + 26 + code - 97);
      else if (code >= 65) styled += String.fromCodePoint(start + code - 65);
      else styled += String.fromCodePoint(0x1d7ce + code - 48);
    }
    return `${styled} `;
  });
}

/** Numbers of 1 to 200 digits from `digits`, separated by spaces, commas or newlines. */
function digitRuns(digits: string): CorpusGenerator {
  const alphabet = Array.from(digits);
  return (size, seed = 1) => {
    const random = seededRandom(seed);
    return fill(size, () => {
      let number = '';
      for (let count = Math.floor(200 ** random.next()) + 1; count > 0; count--)
        number += random.pick(alphabet);
      return `${number}${random.pick([' ', ',', '\n', '.'])}`;
    });
  };
}

/** Runs of 1 to 30 random ASCII punctuation marks between spaces. */
function punctuationRuns(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const marks = Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
  return fill(size, () => {
    let run = '';
    for (let count = random.integer(1, 30); count > 0; count--) run += random.pick(marks);
    return `${run}${random.pick([' ', '\n', ''])}`;
  });
}

/** Runs of one character from `characters`, 2 to 2,000 long, one per line. */
function repeatedRuns(characters: string): CorpusGenerator {
  const alphabet = Array.from(characters);
  return (size, seed = 1) => {
    const random = seededRandom(seed);
    return fill(
      size,
      () => `${random.pick(alphabet).repeat(Math.floor(2000 ** random.next()) + 1)}\n`,
    );
  };
}

function randomString(random: SeededRandom, alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++)
    text += alphabet.charAt(random.integer(0, alphabet.length - 1));
  return text;
}

const HEX_DIGITS = '0123456789abcdef';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** UUIDs, one per line or in a JSON array. */
function uuids(size: number, seed = 1): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const hex = randomString(random, HEX_DIGITS, 32);
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    return random.chance(0.5) ? `${uuid}\n` : `"${uuid}",`;
  });
}

/** SeededRandom ids of letters and digits (8 to 40 characters), with a prefix now and then. */
function alphanumericIds(size: number, seed = 1): string {
  const random = seededRandom(seed);
  return fill(size, () => {
    const prefix = random.pick(['', '', 'id_', 'sk-', 'usr_', 'msg_']);
    return `${prefix}${randomString(random, ALPHANUMERIC, random.integer(8, 40))} `;
  });
}

/** URLs with paths, query strings, ids and fragments. */
function urls(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const hosts = ['api.example.com', 'cdn.example.org', 'github.com', 'localhost:8080'];
  const segments = ['v1', 'users', 'items', 'search', 'assets', 'img', 'repos', 'issues'];
  return fill(size, () => {
    let url = `https://${random.pick(hosts)}`;
    for (let count = random.integer(1, 5); count > 0; count--) {
      url += `/${random.chance(0.7) ? random.pick(segments) : randomString(random, ALPHANUMERIC, random.integer(4, 12))}`;
    }
    if (random.chance(0.6)) {
      url += `?q=${random.pick(segments)}&page=${random.integer(1, 99)}&token=${randomString(random, HEX_DIGITS, 16)}`;
    }
    if (random.chance(0.2)) url += `#${random.pick(segments)}`;
    return `${url}\n`;
  });
}

/** Non-ASCII text percent-encoded as in URLs (`%E4%B8%AD%E6%96%87`). */
function percentEncoded(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const text = `${CORPORA.chinese(400, seed)} ${sentences(words(RUSSIAN_WORDS))(200, seed)}`;
  return fill(size, () => {
    const start = random.integer(0, text.length - 20);
    return `/search?q=${encodeURIComponent(text.slice(start, start + random.integer(2, 20)))}&lang=x\n`;
  });
}

/** Non-ASCII text as JSON `\uXXXX` escapes. */
function unicodeEscapes(size: number, seed = 1): string {
  const random = seededRandom(seed);
  const text = CORPORA.chinese(2000, seed);
  return fill(size, () => {
    const start = random.integer(0, text.length - 20);
    let escaped = '"';
    for (const character of text.slice(start, start + random.integer(2, 20))) {
      const code = character.charCodeAt(0);
      escaped += code < 128 ? character : `\\u${code.toString(16).padStart(4, '0')}`;
    }
    return `${escaped}",`;
  });
}
