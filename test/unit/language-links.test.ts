/**
 * The shared text rules behind link cards and the language suggestion: which links a post holds
 * (trailing punctuation and unbalanced brackets left out), and the script and stop-word guess,
 * which answers null rather than guess on too little.
 */
import { describe, expect, it } from 'vitest';
import { detectLanguage, firstLink, linksIn } from '../../text/index.js';
import { CardParser } from '../../server/domain/link-cards/card-parse.js';

describe('links in a post', () => {
  it('finds http(s) links in order, once each, without trailing punctuation', () => {
    expect(linksIn('See https://example.com/a, then (https://example.org/b). And https://example.com/a!')).toEqual([
      'https://example.com/a',
      'https://example.org/b',
    ]);
    expect(linksIn('Wiki https://en.wikipedia.org/wiki/Foo_(bar) ok')).toEqual([
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    ]);
    expect(firstLink('no links, just example.com and ftp://x.y')).toBeNull();
    expect(firstLink('local http://127.0.0.1:8080/x?y=1#z.')).toBe('http://127.0.0.1:8080/x?y=1#z');
  });
});

describe('language suggestion', () => {
  it.each([
    ['The weather is nice today and we are going to the park with the dog.', 'en'],
    ['Heute ist das Wetter schön und wir gehen mit dem Hund in den Park.', 'de'],
    ["Aujourd'hui le temps est beau et nous allons au parc avec le chien.", 'fr'],
    ['Hoy el tiempo es muy bueno y vamos al parque con el perro.', 'es'],
    ['Hoje o tempo está muito bom e nós vamos ao parque com o cão, não é?', 'pt'],
    ['Vandaag is het mooi weer en we gaan met de hond naar het park.', 'nl'],
    ['今日はいい天気なので、犬と公園に行きます。', 'ja'],
    ['오늘은 날씨가 좋아서 공원에 갑니다', 'ko'],
    ['今天天气很好，我们去公园', 'zh'],
    ['Сегодня хорошая погода, мы идём в парк', 'ru'],
    ['Сьогодні гарна погода, ми йдемо в парк і їмо', 'uk'],
    ['Σήμερα ο καιρός είναι ωραίος', 'el'],
    ['اليوم الطقس جميل ونذهب إلى الحديقة', 'ar'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)?.language).toBe(language);
  });

  it('answers null when it cannot tell: too short, only links and tags, or no clear winner', () => {
    expect(detectLanguage('ok')).toBeNull();
    expect(detectLanguage('https://example.com #launch @team')).toBeNull();
    expect(detectLanguage('🎉🎉🎉')).toBeNull();
    expect(detectLanguage('')).toBeNull();
  });
});

describe('card parser', () => {
  it('prefers Open Graph, resolves the image against the page after redirects, and stops at the head', () => {
    const p = new CardParser('https://short.example/x', 'https://site.example/articles/1');
    p.write(
      '<html><head><meta property="og:title" content="OG &quot;title&quot;"><meta name="twitter:title" content="tw">',
    );
    p.write(
      '<meta property="og:image" content="../img/a.png"></head><body><meta property="og:description" ' +
        'content="in body: ignored">',
    );
    expect(p.done).toBe(true);
    expect(p.card()).toEqual({
      url: 'https://short.example/x',
      title: 'OG "title"',
      description: '',
      imageUrl: 'https://site.example/img/a.png',
      siteName: null,
    });
  });

  it('drops images that are not http(s), and gives null for a head with nothing in it', () => {
    const p = new CardParser('https://a.example/');
    p.write('<head><title>T</title><meta property="og:image" content="javascript:alert(1)"></head>');
    expect(p.card()).toMatchObject({ title: 'T', imageUrl: null });
    const empty = new CardParser('https://a.example/');
    empty.write('<head><meta charset="utf-8"></head>');
    expect(empty.card()).toBeNull();
  });
});
