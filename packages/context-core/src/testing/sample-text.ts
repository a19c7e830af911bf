import { seededRandom } from './seeded-random.js';

/** Kinds of text the history arbitraries produce. */
export type SampleTextKind = 'prose' | 'chinese' | 'json' | 'log' | 'code' | 'base64';

/** All kinds of {@link SampleTextKind}. */
export const SAMPLE_TEXT_KINDS: readonly SampleTextKind[] = Object.freeze([
  'prose',
  'chinese',
  'json',
  'log',
  'code',
  'base64',
]);

const WORDS =
  'the agent reads file config value request returns error while building context tokens model window tool output history message budget user asks for summary of logs and then retries with smaller input because server rejected large payload'.split(
    ' ',
  );
const HANZI = Array.from(
  '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严',
);
const SERVICES = ['api', 'worker', 'db', 'cache', 'gateway', 'scheduler'];
const LEVELS = ['INFO', 'INFO', 'INFO', 'WARN', 'DEBUG', 'ERROR'];
const BASE64 = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');

/**
 * Deterministic text of about `length` characters: the same `(kind, length, seed)` gives the same
 * string. Fast enough to build large tool outputs inside property tests.
 *
 * @param kind - what the text looks like, one of {@link SAMPLE_TEXT_KINDS}
 * @param length - about how many characters
 * @param seed - any integer; the same seed gives the same text
 * @returns the text
 * @throws TypeError for a `kind` that is not one of {@link SAMPLE_TEXT_KINDS}
 */
export function sampleText(kind: SampleTextKind, length: number, seed: number): string {
  const { next: random, pick } = seededRandom(seed);
  const pieces: string[] = [];
  let size = 0;
  const push = (piece: string) => {
    pieces.push(piece);
    size += piece.length;
  };
  let line = 0;
  while (size < length) {
    switch (kind) {
      case 'prose':
        push(`${pick(WORDS)}${random() < 0.1 ? '. ' : ' '}`);
        break;
      case 'chinese': {
        // One random draw per character: most pick a hanzi, a few pick punctuation.
        const draw = random() * HANZI.length * 1.1;
        const index = Math.floor(draw);
        push(HANZI[index] ?? (draw - HANZI.length < HANZI.length * 0.07 ? '，' : '。'));
        break;
      }
      case 'json':
        push(
          `${line === 0 ? '[' : ','}{"id":${line},"name":"${pick(SERVICES)}-${line}","status":"${pick(['running', 'exited', 'paused'])}","cpu":${(random() * 100).toFixed(2)}}\n`,
        );
        break;
      case 'log':
        push(
          `2026-11-0${1 + (line % 9)}T10:${String(line % 60).padStart(2, '0')}:00Z ${pick(LEVELS)} [${pick(SERVICES)}] ${pick(WORDS)} ${pick(WORDS)} id=${Math.floor(random() * 1e6)}\n`,
        );
        break;
      case 'code':
        push(
          `export function ${pick(WORDS)}${line}(value: number): number {\n  return value * ${line % 7} + ${Math.floor(random() * 100)};\n}\n`,
        );
        break;
      case 'base64': {
        let chunk = '';
        for (let i = 0; i < 64; i++) chunk += pick(BASE64);
        push(chunk);
        break;
      }
      default:
        throw new TypeError(
          `sampleText: kind must be one of ${SAMPLE_TEXT_KINDS.join(', ')}; got ${JSON.stringify(kind)}`,
        );
    }
    line += 1;
  }
  return pieces.join('').slice(0, Math.max(0, length));
}
