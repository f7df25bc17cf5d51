/**
 * The money reader every parser family uses (core/parsers/money.ts): amounts in the page's own
 * notation, ISO codes for every symbol, the page's country and language as context, ranges,
 * "from" and unit prices.
 */
import { describe, expect, test } from 'vitest';
import { currencyCode, findAllMoney, findMoney, moneyContext, parseAmount, parseCount, parseRating, readMoney } from '../../core/parsers/money.js';

const com = moneyContext('https://www.shop.com/p/1');
const de = moneyContext('https://www.shop.de/p/1');
const ca = moneyContext('https://www.amazon.ca/dp/1439878676');

describe('money context of a page', () => {
  test('country from the host, decimal mark from the country or the language', () => {
    expect(de).toEqual({ currency: 'EUR', decimal: ',' });
    expect(ca).toEqual({ currency: 'CAD', decimal: '.' });
    expect(moneyContext('https://www.amazon.co.uk/dp/x')).toEqual({ currency: 'GBP', decimal: '.' });
    expect(moneyContext('https://www.amazon.com.br/dp/x')).toEqual({ currency: 'BRL', decimal: ',' });
    expect(moneyContext('https://www.shop.ch/p')).toEqual({ currency: 'CHF', decimal: '.' });
    expect(com).toEqual({ currency: null, decimal: null });
  });

  test('a generic domain: a locale in the path, else the page language', () => {
    expect(moneyContext('https://www.furniture.com/de/de/p/chair-1')).toEqual({ currency: 'EUR', decimal: ',' });
    expect(moneyContext('https://www.shop.com/en-gb/p/1')).toEqual({ currency: 'GBP', decimal: '.' });
    expect(moneyContext('https://www.shop.com/p/1', 'fr-FR')).toEqual({ currency: 'EUR', decimal: ',' });
    expect(moneyContext('https://www.shop.com/p/1', 'es')).toEqual({ currency: null, decimal: ',' });
  });
});

describe('readMoney: a price text', () => {
  test.each([
    ['$1,299.99', com, 1299.99, 'USD'],
    ['2,199.99', com, 2199.99, null],
    ['1.234,56 €', com, 1234.56, 'EUR'],
    ['53,11 €', com, 53.11, 'EUR'],
    ['14,99', de, 14.99, 'EUR'],
    ['1.234', de, 1234, 'EUR'],
    ['19,-', de, 19, 'EUR'],
    ['CDN$ 75.98', ca, 75.98, 'CAD'],
    ['$ 75.98', ca, 75.98, 'CAD'],
    ['$12', de, 12, 'USD'],
    ['AED330.00', com, 330, 'AED'],
    ['R$ 1.299,00', com, 1299, 'BRL'],
    ['1 299,00 zł', com, 1299, 'PLN'],
    ['¥1,280', com, 1280, 'JPY'],
    ['¥1,280', moneyContext('https://www.shop.cn/'), 1280, 'CNY'],
    ['12 kr', moneyContext('https://www.shop.no/'), 12, 'NOK'],
    ["CHF 1'299.50", com, 1299.5, 'CHF'],
    ['EUR 12,50', com, 12.5, 'EUR'],
    ['£8.99', com, 8.99, 'GBP'],
  ] as const)('%s', (text, ctx, amount, currency) => {
    const m = readMoney(text, ctx);
    expect({ amount: m?.amount, currency: m?.currency }).toEqual({ amount, currency });
  });

  test('ranges, "from" prices and unit prices are told apart', () => {
    expect(readMoney('$10.99 - $24.99', com)).toEqual({ text: '$10.99 - $24.99', amount: 10.99, upper: 24.99, currency: 'USD', symbol: '$' });
    expect(readMoney('10–25 €', de)).toEqual({ text: '10–25 €', amount: 10, upper: 25, currency: 'EUR', symbol: '€' });
    expect(readMoney('ab 5,99 €', de)).toEqual({ text: '5,99 €', amount: 5.99, currency: 'EUR', symbol: '€', from: true });
    expect(readMoney('from $5', com)?.from).toBe(true);
    expect(readMoney('($0.25/Count)', com)).toEqual({ text: '$0.25', amount: 0.25, currency: 'USD', symbol: '$', unit: 'count' });
    expect(readMoney('2,50 € / kg', de)?.unit).toBe('kg');
  });

  test('no digits, no price', () => {
    expect(readMoney('Currently unavailable.', com)).toBeNull();
    expect(readMoney('', com)).toBeNull();
  });
});

describe('findMoney: a price inside a longer text', () => {
  test('only numbers that carry a currency', () => {
    expect(findMoney('1 offer from $59.99 (new)', com)?.amount).toBe(59.99);
    for (const t of ['USB 3 Cable, 2 pack', 'TOP 10 deals', 'AMD 5600 processor', 'Lot of 4 Vintage', '5 Ft tall']) expect(findMoney(t, com)).toBeNull();
    expect(findAllMoney('Was $45.99 Now $35.99', com).map((m) => m.amount)).toEqual([45.99, 35.99]);
  });
});

describe('ratings and counts as displayed', () => {
  test('the value, whichever side of the scale a language puts it', () => {
    expect(['4.5 out of 5 stars', '4,5 von 5 Sternen', '4,3 sur 5 étoiles', 'Rated 4.7/5', '5つ星のうち4.3', '5 yıldız üzerinden 4,1'].map(parseRating)).toEqual([4.5, 4.5, 4.3, 4.7, 4.3, 4.1]);
    expect(['1,234 ratings', '1.234 Bewertungen', '1,234個の評価', '1.2K', '3 600 000 views'].map(parseCount)).toEqual([1234, 1234, 1234, 1200, 3600000]);
  });
});

describe('parseAmount and currencyCode', () => {
  test('separators by the digits, else by the decimal mark given', () => {
    expect(parseAmount('1.234,56')).toBe(1234.56);
    expect(parseAmount('1,234.56')).toBe(1234.56);
    expect(parseAmount('1.234.567')).toBe(1234567);
    expect(parseAmount('1,234', ',')).toBe(1.234);
    expect(parseAmount('1,234', '.')).toBe(1234);
    expect(parseAmount('12,5')).toBe(12.5);
    expect(parseAmount('1 234,5')).toBe(1234.5);
  });

  test('codes and symbols as ISO 4217 codes', () => {
    expect(currencyCode('$', ca)).toBe('CAD');
    expect(currencyCode('€')).toBe('EUR');
    expect(currencyCode('usd')).toBe('USD');
    expect(currencyCode('CDN$')).toBe('CAD');
    expect(currencyCode('XYZ')).toBeNull();
  });
});
