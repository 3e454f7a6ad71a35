/** The evergreen fill rule as a table: which draft a free slot takes, and which text X gets. */
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  pickForSlot,
  pickVariant,
  skipReason,
  type EvergreenCandidate,
} from '../../server/domain/scheduling/evergreen-rule.js';

const SLOT = Date.parse('2027-03-01T09:00:00Z');
const ago = (days: number) => SLOT - days * DAY_MS;
const c = (draftId: string, o: Partial<EvergreenCandidate> = {}): EvergreenCandidate => ({
  draftId,
  enabled: true,
  minDaysBetween: 30,
  maxRepeats: null,
  lastPublishedAt: ago(40),
  repeats: 0,
  queued: false,
  networksLeft: 2,
  ...o,
});

describe('pickForSlot', () => {
  it.each<[string, EvergreenCandidate[], string | null]>([
    ['none', [], null],
    ['one due', [c('a')], 'a'],
    ['published longest ago wins', [c('a', { lastPublishedAt: ago(35) }), c('b', { lastPublishedAt: ago(90) })], 'b'],
    ['not due yet (29 of 30 days)', [c('a', { lastPublishedAt: ago(29) })], null],
    ['due exactly at minDaysBetween', [c('a', { lastPublishedAt: ago(30) })], 'a'],
    ['its own minDaysBetween', [c('a', { lastPublishedAt: ago(8), minDaysBetween: 7 })], 'a'],
    ['never published: not a repeat', [c('a', { lastPublishedAt: null })], null],
    ['disabled', [c('a', { enabled: false })], null],
    ['already queued', [c('a', { queued: true }), c('b', { lastPublishedAt: ago(31) })], 'b'],
    ['repeats used up', [c('a', { maxRepeats: 2, repeats: 2 })], null],
    ['repeats left', [c('a', { maxRepeats: 2, repeats: 1 })], 'a'],
    ['no network left: shown, never picked', [c('a', { networksLeft: 0 })], null],
    ['a tie goes to the lower id', [c('b'), c('a')], 'a'],
  ])('%s', (_name, candidates, want) => {
    expect(pickForSlot(candidates, SLOT)?.draftId ?? null).toBe(want);
  });
});

describe('pickVariant', () => {
  it.each<[string, string[], string[], string | null]>([
    ['nothing sent: the text', ['Hello', 'Hi'], [], 'Hello'],
    ['text sent: the next variant', ['Hello', 'Hi', 'Hey'], ['Hello'], 'Hi'],
    ['two sent: the third', ['Hello', 'Hi', 'Hey'], ['Hi', 'Hello'], 'Hey'],
    ['all sent: none (skip)', ['Hello', 'Hi'], ['Hi', 'Hello'], null],
    ['whitespace and NFC do not make a new text', ['Caf\u00e9  time', 'Other'], ['Cafe\u0301 time'], 'Other'],
    ['an empty variant is never sent', ['Hello', '  '], ['Hello'], null],
  ])('%s', (_name, texts, sent, want) => {
    expect(pickVariant(texts, sent)).toBe(want);
  });

  it('passes over a variant that does not fit the network, and says why when none is left', () => {
    const fits = (t: string) => t.length <= 10;
    expect(pickVariant(['Hello', 'A variant far too long', 'Short one'], ['Hello'], fits)).toBe('Short one');
    expect(pickVariant(['Hello', 'A variant far too long'], ['Hello'], fits)).toBeNull();
    expect(skipReason(['Hello', 'A variant far too long'], ['Hello'])).toMatch(/over its length limit/);
    expect(skipReason(['Hello', 'Hi'], ['Hi', 'Hello'])).toMatch(/every text of this draft and its variants/);
  });
});
