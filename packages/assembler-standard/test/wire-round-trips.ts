import type { Message } from '@ctxkit/context-core';
import { deepFreeze, fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStandardAssembler } from '../src/index.js';
import { arbitraryVariedHistory } from './history-arbitraries.js';

/** One wire format, as the round-trip properties see it. */
export interface WireFormat<Wire> {
  name: string;
  arbitraryWire: () => fc.Arbitrary<Wire>;
  to: (messages: Message[]) => Wire;
  from: (wire: Wire) => Message[];
  validate: (wire: Wire) => void;
  /** What `from(to(prompt))` gives back for an assembled prompt. */
  normalize: (messages: readonly Message[]) => Message[];
  /** Whether tool-call inputs may only be objects in this format. */
  objectInputs?: boolean;
}

/** The round-trip properties every wire format must keep, over 1,000 random cases each. */
export function testWireRoundTrips<Wire>(format: WireFormat<Wire>): void {
  const runs = fuzzParameters(100);
  const assembler = createStandardAssembler();
  describe(`${format.name} round trips`, () => {
    it('wire → ctxkit → wire is the identity on valid wire in the written form', () => {
      fc.assert(
        fc.property(format.arbitraryWire(), (wire) => {
          format.validate(wire);
          expect(format.to(format.from(deepFreeze(wire)))).toEqual(wire);
        }),
        runs,
      );
    });

    it('from → to → from is the identity', () => {
      fc.assert(
        fc.property(format.arbitraryWire(), (wire) => {
          const messages = format.from(wire);
          expect(format.from(format.to(messages))).toEqual(messages);
        }),
        runs,
      );
    });

    it('every assembled history converts to valid wire and comes back normalized', () => {
      const histories = arbitraryVariedHistory({
        sendable: true,
        ...(format.objectInputs ? { objectInputs: true } : {}),
      });
      fc.assert(
        fc.property(histories, (history) => {
          const prompt = deepFreeze(assembler.assemble({ system: [], history }));
          const wire = format.to(prompt);
          format.validate(wire);
          expect(format.from(wire)).toEqual(format.normalize(prompt));
        }),
        runs,
      );
    });
  });
}
