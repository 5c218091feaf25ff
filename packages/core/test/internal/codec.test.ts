import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { HttpUrl, MaxLengthString, PLAIN_HTTP_URL } from '../../src/internal/codec.js'

const parses = (s: string): boolean => {
  try {
    const url = new URL(s)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

describe('HttpUrl', () => {
  test.prop([fc.stringMatching(PLAIN_HTTP_URL)], {
    numRuns: 2000,
  })('the form checked without parsing is one the URL parser accepts', (s) => {
    expect(parses(s)).toBe(true)
  })

  test.prop([
    fc.oneof(
      fc.string(),
      fc.webUrl(),
      fc.stringMatching(/^https?:\/\/[0-9a-z.:x-]{0,20}[/?#]?.{0,10}$/),
      fc.stringMatching(/^https?:\/\/(?:xn--|[a-z-]){1,12}(?:\.[a-z0-9-]{1,8}){0,3}(?:\/.{0,6})?$/),
    ),
  ])('accepts exactly what the URL parser accepts as http(s)', (s) => {
    expect(HttpUrl.is(s)).toBe(parses(s))
  })

  it.each([
    'http://1.2.3.256/',
    'http://ex.com:99999',
    'ftp://ex.com',
    'https://',
    'https://ex ample.com',
  ])('refuses %s', (s) => {
    expect(E.isLeft(HttpUrl.decode(s))).toBe(true)
  })

  it.each(['http://a--b.c/', 'http://xn--bcher-kva.example/', 'http://a.b/xn--'])(
    'leaves %s, a host with two hyphens in a row, to the URL parser (or has none)',
    (s) => {
      expect(PLAIN_HTTP_URL.test(s)).toBe(s.endsWith('/xn--'))
      expect(HttpUrl.is(s)).toBe(parses(s))
    },
  )

  it.each(['http://1.2.3.4/', 'http://a..b/c', 'https://shop.example.com/ok?o=1#x', 'HTTP://A.B'])(
    'accepts %s',
    (s) => {
      expect(E.isRight(HttpUrl.decode(s))).toBe(true)
    },
  )
})

describe('MaxLengthString', () => {
  test.prop([fc.string({ unit: 'binary', maxLength: 12 }), fc.nat({ max: 8 })])(
    'counts Unicode code points, as spreading the string does',
    (s, max) => {
      expect(MaxLengthString(max).is(s)).toBe([...s].length <= max)
      expect(E.isRight(MaxLengthString(max).decode(s))).toBe([...s].length <= max)
    },
  )
})
