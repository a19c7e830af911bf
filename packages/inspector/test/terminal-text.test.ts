import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../src/json-text.js';
import { terminalText } from '../src/terminal-text.js';

/** Any C0 control but line feed, DEL or C1: what a terminal acts on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Any C0, DEL or C1 control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Text rich in control characters, separators and backslashes, beside any other character. */
const anyText = fc.string({
  maxLength: 60,
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xa0 }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('\u2028', '\u2029', '\\', '"'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
});

describe('terminalText and jsonText, for any text', () => {
  it('terminalText leaves no control character, and changes nothing else', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, multiline) => {
        const shown = terminalText(text, multiline);
        const left = [...shown].filter((character) => RAW_CONTROL.test(character));
        expect(left.every((character) => multiline && character === '\t')).toBe(true);
        if (!multiline) expect(shown).not.toContain('\n');
        // Without control characters, the text is shown as it is.
        const plain = [...text].filter((character) => !ANY_CONTROL.test(character)).join('');
        expect(terminalText(plain, multiline)).toBe(plain);
      }),
      fuzzParameters(300),
    );
  });

  it('jsonText parses back to the same value, with no raw C1, DEL or line separator', () => {
    fc.assert(
      fc.property(fc.jsonValue(), anyText, (value, text) => {
        const written = jsonText({ value, text });
        expect(written).not.toMatch(/[\u007f-\u009f\u2028\u2029]/);
        expect(JSON.parse(written)).toEqual(JSON.parse(JSON.stringify({ value, text })));
      }),
      fuzzParameters(300),
    );
  });
});
