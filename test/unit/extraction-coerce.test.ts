/** Value normalisation (numbers and prices, currencies, stock flags, dates) and fitting answers to the schema. */
import { describe, expect, it } from 'vitest';
import { coerce, currencyOf, parseBoolean, parseNumber } from '../../core/extraction/coerce.js';
import { fitToSchema, unfilledFields } from '../../core/extraction/fit.js';
import { compileSchema, view } from '../../core/extraction/schema.js';

describe('coercion', () => {
  it('parses numbers in the formats shops print', () => {
    const inputs = ['1.299,00 €', '$1,299.00', '1 299,00 zł', "CHF 1'299.50", '12,99 €', '4.5 out of 5 stars', '(1,204)', '1.2K views', '1.299 €', '-3,5', 'EUR 0.99', 'none'];
    expect(inputs.map(parseNumber)).toEqual([1299, 1299, 1299, 1299.5, 12.99, 4.5, 1204, 1200, 1299, -3.5, 0.99, undefined]);
  });

  it('reads the currency off a price', () => {
    expect(['1.299,00 €', '$12', 'US$ 5', 'R$ 10,00', '£4.20', '12 EUR', '100 zł', '7'].map(currencyOf)).toEqual(['EUR', 'USD', 'USD', 'BRL', 'GBP', 'EUR', 'PLN', undefined]);
  });

  it('reads stock and yes/no as booleans', () => {
    const inputs = ['In stock', 'https://schema.org/InStock', 'OutOfStock', 'Sold out', 'Currently unavailable', 'yes', 'No', 'maybe'];
    expect(inputs.map(parseBoolean)).toEqual([true, true, false, false, false, true, false, undefined]);
  });

  it('fits strings to formats, enums and patterns', () => {
    const root = {};
    const c = (value: unknown, schema: Record<string, unknown>, concept?: string) => coerce(value, view(schema, root), { base: 'https://a.example/x/', concept });
    expect([
      c('2017-04-14T09:02:38-07:00', { type: 'string', format: 'date-time' }),
      c('2017-04-14T09:02:38-07:00', { type: 'string', format: 'date' }),
      c('/img/a.jpg', { type: 'string', format: 'uri' }),
      c('https://schema.org/InStock', { type: 'string', enum: ['InStock', 'OutOfStock'] }),
      c('es-ES', { type: 'string', pattern: '^[a-z]{2}$' }),
      c('1.299,00 €', { type: 'string' }, 'currency'),
      c({ '@type': 'Brand', name: 'Aero' }, { type: 'string' }),
      c({ '@type': 'AggregateRating', ratingValue: '4.6' }, { type: 'number' }),
      c('4.5', { type: 'integer' }),
      c(12.99, { type: ['string', 'number'] }),
    ]).toEqual(['2017-04-14T16:02:38.000Z', '2017-04-14', 'https://a.example/img/a.jpg', 'InStock', 'es', 'EUR', 'Aero', 4.6, undefined, 12.99]);
  });
});

describe('fitting to the schema', () => {
  it('removes undeclared keys, cuts long arrays, nulls then drops bad values, and lists what is empty', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
        price: { type: ['number', 'null'] },
        rating: { type: 'number', maximum: 5 },
        offers: { type: 'array', items: { type: 'object', properties: { seller: { type: 'string' }, price: { type: 'number' } } } },
      },
      required: ['name', 'rating'],
    };
    const compiled = compileSchema(schema);
    const answer = { name: 'A', extra: 1, tags: ['x', 'y', 'z'], price: 'cheap', rating: 9, offers: [{ seller: 'S', price: 'n/a' }, { seller: 'T', price: 3 }] };
    const fitted = fitToSchema(answer, compiled);
    expect(fitted).toEqual({ json: { name: 'A', tags: ['x', 'y'], price: null, offers: [{ seller: 'S' }, { seller: 'T', price: 3 }] }, remaining: [] });
    expect(unfilledFields(fitted.json, compiled.schema, compiled.schema)).toEqual(['/price', '/rating', '/offers/0/price']);
  });
});
