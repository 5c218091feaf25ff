/**
 * Small io-ts combinators shared by the core's codecs: refinements that name the rule
 * they check (a `FieldIssue`), defaults, failures placed at a field below the value being
 * decoded, and the leaf codecs the spec uses again and again (bounded strings, positive
 * integers, URLs, times).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { validatesThrough } from './expected.js'
import { type FieldIssue, issuedError, type IssuedError, kindOf, type ValueKind } from './issue.js'
import { hinted } from './schemaHint.js'
import { withCollector } from './collector.js'
import {
  atLeastOneErrors,
  chosenErrors,
  defaultErrors,
  inputRuleErrors,
  leafErrors,
  type NotExactlyOne,
  nullAsAbsentErrors,
  nullOrErrors,
  refineErrors,
  ruleErrors,
  structErrors,
} from './codecErrors.js'
import {
  FAIL,
  failed,
  type FastDecoder,
  type FastPathBuilder,
  markUnrolled,
  withFastPath,
} from './fastDecoder.js'
import {
  defaultDecoder,
  isRefusingAbsent,
  nullableDecoder,
  primitiveDecoder,
  primitiveOf,
  type Quick,
  refusesAbsent,
  withOneOfForm,
} from './fastForm.js'

// -------------------------------------------------------------------------------------
// failures that name their rule
// -------------------------------------------------------------------------------------

const REQUIRED: FieldIssue = { code: 'required' }

/** A failed validation of `u` at `c` for `issue` (`t.failure`, with the issue). */
export const failure = <A>(u: unknown, c: t.Context, issue: FieldIssue): t.Validation<A> =>
  E.left([issuedError(u, c, issue)])

/** `required` for an absent value, else a type error: `kind` was expected. */
export const requiredOrType = (u: unknown, kind: ValueKind): FieldIssue =>
  u === undefined ? REQUIRED : { code: 'type', expected: [kind], received: kindOf(u) }

// -------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------

/**
 * `outer`, recorded as validating through `inner` (for the words of its errors) and as
 * decoding valid input the fast way `build` says (see `fastDecode`).
 */
const combinator = <T extends object>(
  outer: T,
  inner: t.Decoder<unknown, unknown>,
  build: FastPathBuilder,
): T => withFastPath(validatesThrough(outer, inner), build)

/**
 * A codec narrowed by a predicate whose failure reports `issue` (never the value);
 * `quick` is a check that a walk of a record makes inline for it (see `fastForm`).
 */
export const refine = <A, O>(
  codec: t.Type<A, O, unknown>,
  predicate: (a: A) => boolean,
  issue: FieldIssue,
  name = `Refined<${codec.name}>`,
  quick?: Quick,
): t.Type<A, O, unknown> =>
  withCollector(
    ruleRecorded(
      new t.Type<A, O, unknown>(
        name,
        (u): u is A => codec.is(u) && predicate(u),
        // A plain function, no `E.chain`: fp-ts's dual dispatch costs more than the check.
        (u, c) => {
          const result = codec.validate(u, c)
          if (result._tag === 'Left' || predicate(result.right)) return result
          return failure<A>(u, c, issue)
        },
        codec.encode,
      ),
      codec,
      (compile) => {
        const type = primitiveOf(codec)
        if (type !== undefined) return primitiveDecoder(type, predicate, quick)
        const inner = compile(codec)
        const refined: FastDecoder = (u) => {
          const a = inner(u)
          return failed(a) || !predicate(a as A) ? FAIL : a
        }
        return isRefusingAbsent(inner) ? refusesAbsent(refined) : refined
      },
      issue,
    ),
    refineErrors(codec, predicate, issue),
  )

/** `combinator`, recording the rule the refinement checks for the OpenAPI generator. */
const ruleRecorded = <T extends object>(
  outer: T,
  inner: t.Decoder<unknown, unknown>,
  build: FastPathBuilder,
  issue: FieldIssue,
): T => hinted(combinator(outer, inner, build), { issue })

/** Decodes `undefined` (an absent field) as `value`; everything else goes to `codec`. */
export const withDefault = <A, O>(codec: t.Type<A, O, unknown>, value: A): t.Type<A, O, unknown> =>
  withCollector(
    combinator(
      new t.Type<A, O, unknown>(
        codec.name,
        codec.is,
        (u, c): t.Validation<A> => (u === undefined ? t.success(value) : codec.validate(u, c)),
        codec.encode,
      ),
      codec,
      (compile) => defaultDecoder(compile(codec), value),
    ),
    defaultErrors(codec),
  )

/** The context of a field below the value being decoded, for a rule that spans fields. */
const at = (c: t.Context, u: unknown, keys: ReadonlyArray<string | number>): t.Context => {
  let actual = u
  const entries: Array<t.ContextEntry> = [...c]
  for (const key of keys) {
    actual =
      actual !== null && typeof actual === 'object'
        ? (actual as Record<string | number, unknown>)[key]
        : undefined
    entries.push({ key: String(key), type: t.unknown, actual })
  }
  return entries
}

/** A failure of the field at `keys` below `u`, for `issue`. */
export const failureAt = (
  u: unknown,
  c: t.Context,
  keys: ReadonlyArray<string | number>,
  issue: FieldIssue,
): IssuedError => {
  const context = at(c, u, keys)
  return issuedError(context[context.length - 1]?.actual, context, issue)
}

/**
 * A codec whose decoding runs `codec` and then a cross-field rule that returns the
 * errors it finds (empty when the value keeps the rule).
 */
export const withRule = <A, O>(
  codec: t.Type<A, O, unknown>,
  rule: (a: A, u: unknown, c: t.Context) => ReadonlyArray<t.ValidationError>,
  name = codec.name,
): t.Type<A, O, unknown> =>
  withCollector(
    combinator(
      new t.Type<A, O, unknown>(
        name,
        (u): u is A => codec.is(u) && rule(u, u, []).length === 0,
        (u, c) => {
          const result = codec.validate(u, c)
          if (result._tag === 'Left') return result
          const errors = rule(result.right, u, c)
          return errors.length === 0 ? result : E.left([...errors])
        },
        codec.encode,
      ),
      codec,
      (compile) => {
        const inner = compile(codec)
        return (u) => {
          const a = inner(u)
          return failed(a) || rule(a as A, u, []).length > 0 ? FAIL : a
        }
      },
    ),
    ruleErrors(codec, rule),
  )

// -------------------------------------------------------------------------------------
// leaf codecs
// -------------------------------------------------------------------------------------

/** A string with at least one non-blank character: a blank one is `required`. */
export const NonEmptyString = hinted(
  refine(t.string, (s) => s.trim().length > 0, REQUIRED, 'NonEmptyString', { check: 'nonBlank' }),
  { pattern: /\S/ },
)

const SURROGATE = /[\uD800-\uDFFF]/

/**
 * Whether `s` has at most `max` code points, without spreading it into an array: a string
 * of at most `max` UTF-16 units always fits, and only a longer one is counted.
 */
const fitsCodePoints = (s: string, max: number): boolean => {
  if (s.length <= max) return true
  if (s.length > 2 * max) return false
  // Without a surrogate, every unit is a code point: too long (one native search).
  if (!SURROGATE.test(s)) return false
  let count = 0
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i)
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) i++
    }
    if (++count > max) return false
  }
  return true
}

/** A string of at most `max` characters (counted as Unicode code points). */
export const MaxLengthString = (max: number): t.Type<string, string, unknown> =>
  refine(
    t.string,
    (s) => fitsCodePoints(s, max),
    { code: 'maxLength', maximum: max },
    `MaxLength<${max}>`,
    { check: 'maxLength', bound: max },
  )

/** An integer greater than zero. */
export const PositiveInt = refine(
  t.number,
  (n) => Number.isSafeInteger(n) && n > 0,
  { code: 'positiveInt' },
  'PositiveInt',
  { check: 'positiveInt' },
)

/** An integer (any sign). */
export const Int = refine(t.number, Number.isSafeInteger, { code: 'integer' }, 'Int')

/**
 * A form of http(s) URL that the WHATWG parser always accepts, checked without parsing:
 * a host of ASCII letters and digits with single hyphens inside its labels (so never
 * punycode's `xn--`, whose decoding can fail) and whose last label starts with a letter
 * (so it is not read as an IPv4 number), an optional port below 10000, and a path, query
 * and fragment of URL characters only. Anything else is left to `new URL`.
 */
export const PLAIN_HTTP_URL =
  /^[Hh][Tt][Tt][Pp][Ss]?:\/\/(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\.?(?::\d{1,4})?(?:[/?#][A-Za-z0-9\-._~!$&'()*+,;=:@%/?#]*)?$/

const parsesAsHttpUrl = (s: string): boolean => {
  try {
    const url = new URL(s)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

// The pieces of HTTP_URL_FORM, RegExp source that reads the same with and without the `u`
// flag (JSON Schema validators compile patterns with it). The parser removes every tab and
// newline first, so a run of them may come before any character (`tabbed`); each run
// belongs to one place, so that a long input that fails does not backtrack for long.
const TABS = String.raw`[\t\n\r]*`
const tabbed = (source: string): string => `${TABS}${source}`
const HOST_CHAR = String.raw`[^\u0000-\u0020#/:<>?@[\\\]^|\u007F]`
const IPV6_CHAR = '[0-9A-Fa-f:.]'
const digits = (n: string): string => `(?:${tabbed(String.raw`\d`)}){${n}}`
const PORT_1_TO_65535 = [
  `[1-9]${digits('0,3')}`,
  `[1-5]${digits('4')}`,
  `6${tabbed('[0-4]')}${digits('3')}`,
  `6${tabbed('5')}${tabbed('[0-4]')}${digits('2')}`,
  `6${tabbed('5')}${tabbed('5')}${tabbed('[0-2]')}${digits('1')}`,
  `6${tabbed('5')}${tabbed('5')}${tabbed('3')}${tabbed('[0-5]')}`,
].join('|')

/**
 * The form of every http(s) URL the WHATWG parser accepts, as one pattern: the part of
 * `HttpUrl` that a JSON Schema can say. Leading and trailing spaces and controls (which
 * the parser drops), tabs and newlines anywhere, the scheme in any case, any run of `/` or
 * `\`, an optional `user:password@`, a host that is not empty and holds no space, control
 * or `#/:<>?@[\]^|` (or `[` IPv6 characters `]`), a port below 65536, and anything after
 * the first `/`, `\`, `?` or `#`: so `http://` and `http://exa mple.com/` fail it. It lets
 * through a host the parser's IDNA, IPv4 or IPv6 reading refuses (`http://1.2.3.256`).
 */
const HTTP_URL_FORM = new RegExp(
  [
    String.raw`^[\u0000-\u0020]*`,
    `[Hh]${tabbed('[Tt]')}${tabbed('[Tt]')}${tabbed('[Pp]')}(?:${tabbed('[Ss]')})?${tabbed(':')}`,
    `(?:${tabbed(String.raw`[/\\]`)})*`,
    `(?:${TABS}(?:${String.raw`[^/?#\\\t\n\r][^/?#\\]*`})?@)?`,
    `${TABS}(?:${String.raw`\[`}${tabbed(IPV6_CHAR)}(?:${tabbed(IPV6_CHAR)})*${tabbed(String.raw`\]`)}`,
    `|${HOST_CHAR}(?:${tabbed(HOST_CHAR)})*)`,
    `(?:${tabbed(':')}(?:${tabbed('0')})*(?:${TABS}(?:${PORT_1_TO_65535}))?)?`,
    `(?:${tabbed(String.raw`[/?#\\]`)}${String.raw`[\s\S]*`}|${String.raw`[\u0000-\u0020]*`})$`,
  ].join(''),
)

/** An absolute http or https URL. */
export const HttpUrl = hinted(
  refine(
    t.string,
    // One test of the plain form, which has no `xn--` to search for: most URLs are of it.
    (s) => PLAIN_HTTP_URL.test(s) || parsesAsHttpUrl(s),
    { code: 'url' },
    'HttpUrl',
  ),
  { pattern: HTTP_URL_FORM },
)

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}Z$/

/** ISO 8601 UTC date-time with fractional seconds and a trailing Z (spec 2.5, 2.8). */
export const IsoDateTime = hinted(
  refine(
    t.string,
    (s) => ISO_UTC.test(s) && !Number.isNaN(Date.parse(s)),
    { code: 'dateTime' },
    'IsoDateTime',
    { check: 'isoDateTime' },
  ),
  { pattern: ISO_UTC },
)

/** `codec` or null. */
export const nullable = <C extends t.Mixed>(codec: C): t.UnionC<[C, t.NullC]> =>
  t.union([codec, t.null])

// -------------------------------------------------------------------------------------
// request objects and input rules (charge side)
// -------------------------------------------------------------------------------------

/**
 * A request object: `required` and `optional` props, unknown fields stripped. Unlike a
 * bare `t.exact(t.intersection(...))`, its errors name `card.number`, not the branch
 * index (`["0"].card.number`), and a non-object fails with one type error.
 */
export const exactStruct = <R extends t.Props, P extends t.Props>(
  required: R,
  optional: P,
  name: string,
): t.Type<
  t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<P>>,
  t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<P>>,
  unknown
> => {
  const inner = t.intersection([t.type(required), t.partial(optional)])
  const exact = t.exact(inner)
  const struct = new t.Type(
    name,
    exact.is,
    (u, c) => {
      if (!t.UnknownRecord.is(u)) return failure(u, c, requiredOrType(u, 'object'))
      const last = c[c.length - 1]
      // Present the intersection as the value's type so pathOf skips its branch indexes.
      return exact.validate(
        u,
        last === undefined ? c : [...c.slice(0, -1), { ...last, type: inner }],
      )
    },
    exact.encode,
  )
  return withCollector(
    combinator(struct, exact, (compile) => {
      const inner = compile(exact)
      return (u) => (t.UnknownRecord.is(u) ? inner(u) : FAIL)
    }),
    structErrors(exact, inner, (u) => requiredOrType(u, 'object')),
  )
}

/** `codec` or null, with one precise error (a bare `t.union` reports both branches). */
export const nullOr = <A, O>(codec: t.Type<A, O, unknown>): t.Type<A | null, O | null, unknown> =>
  withCollector(
    combinator(
      new t.Type<A | null, O | null, unknown>(
        `${codec.name} | null`,
        (u): u is A | null => u === null || codec.is(u),
        (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
        (a) => (a === null ? null : codec.encode(a)),
      ),
      t.union([codec, t.null]),
      (compile) => nullableDecoder(compile(codec)),
    ),
    nullOrErrors(codec),
  )

/**
 * `codec` plus a rule read from the raw input, reported together with the codec's own
 * errors (so a missing `billingInfo` is named even when another field is also wrong).
 */
export const withInputRule = <A, O>(
  codec: t.Type<A, O, unknown>,
  rule: (u: unknown, c: t.Context) => ReadonlyArray<t.ValidationError>,
  name = codec.name,
): t.Type<A, O, unknown> =>
  withCollector(
    combinator(
      new t.Type<A, O, unknown>(
        name,
        (u): u is A => codec.is(u) && rule(u, []).length === 0,
        (u, c) => {
          const decoded = codec.validate(u, c)
          const broken = rule(u, c)
          if (broken.length === 0) return decoded
          return E.left([...(E.isLeft(decoded) ? decoded.left : []), ...broken])
        },
        codec.encode,
      ),
      codec,
      (compile) => {
        const inner = compile(codec)
        return (u) => {
          const a = inner(u)
          return failed(a) || rule(u, []).length > 0 ? FAIL : a
        }
      },
    ),
    inputRuleErrors(codec, rule),
  )

/**
 * `codec` for an object input whose `key`, when null, reads as absent: JSON clients often
 * send `null` for an optional field they do not use.
 */
export const nullAsAbsent = <A, O>(
  codec: t.Type<A, O, unknown>,
  key: string,
): t.Type<A, O, unknown> =>
  hinted(
    withCollector(
      combinator(
        new t.Type<A, O, unknown>(
          codec.name,
          codec.is,
          (u, c) => {
            if (!t.UnknownRecord.is(u) || u[key] !== null) return codec.validate(u, c)
            const { [key]: _null, ...rest } = u
            return codec.validate(rest, c)
          },
          codec.encode,
        ),
        codec,
        (compile) => {
          const inner = compile(codec)
          return (u) => {
            if (!t.UnknownRecord.is(u) || u[key] !== null) return inner(u)
            const { [key]: _null, ...rest } = u
            return inner(rest)
          }
        },
      ),
      nullAsAbsentErrors(codec, key),
    ),
    { nullAsAbsent: key },
  )

const isBlank = (u: unknown): boolean => typeof u === 'string' && u.trim() === ''

/**
 * One of a few string literals, failing with the list of accepted values (`oneOf`); an
 * absent or blank value (nothing chosen) is `required`.
 */
export const oneOf = <L extends string>(
  values: ReadonlyArray<L>,
  name: string,
): t.Type<L, L, unknown> => {
  const is = (u: unknown): u is L =>
    typeof u === 'string' && (values as ReadonlyArray<string>).includes(u)
  const issue: FieldIssue = { code: 'oneOf', values }
  const codec = withFastPath(
    new t.Type<L, L, unknown>(
      name,
      (u): u is L => typeof u === 'string' && (values as ReadonlyArray<string>).includes(u),
      (u, c) =>
        typeof u === 'string' && (values as ReadonlyArray<string>).includes(u)
          ? t.success(u as L)
          : failure(u, c, u === undefined || isBlank(u) ? REQUIRED : issue),
      t.identity,
    ),
    () => (u) => (is(u) ? u : FAIL),
  )
  withCollector(
    codec,
    leafErrors(
      (u) => !is(u),
      (u) => (u === undefined || isBlank(u) ? REQUIRED : issue),
    ),
  )
  return hinted(codec, { type: 'string', issue })
}

// -------------------------------------------------------------------------------------
// codecs with a fast form of their own
// -------------------------------------------------------------------------------------

/**
 * Marks `codec`, a record of the model, as decoded by its fast form in `fastRecords` (found
 * by its name, which must be unique among the core's records): its members read by name.
 */
export const unrolled = <C extends t.Decoder<unknown, unknown>>(codec: C): C => markUnrolled(codec)

/**
 * A codec whose decoding is `decode`: the value, or `undefined` for input it refuses,
 * reported as `issueOf(u)`. Valid input decodes through `decode` alone, no `Either` made.
 */
export const decoding = <A, O>(
  name: string,
  is: t.Is<A>,
  decode: (u: unknown) => A | undefined,
  issueOf: (u: unknown) => FieldIssue,
  encode: t.Encode<A, O>,
): t.Type<A, O, unknown> =>
  withCollector(
    withFastPath(
      new t.Type<A, O, unknown>(
        name,
        is,
        (u, c) => {
          const a = decode(u)
          return a === undefined ? failure<A>(u, c, issueOf(u)) : t.success(a)
        },
        encode,
      ),
      () => {
        const fast: FastDecoder = (u) => {
          const a = decode(u)
          return a === undefined ? FAIL : a
        }
        return decode(undefined) === undefined ? refusesAbsent(fast) : fast
      },
    ),
    leafErrors((u) => decode(u) === undefined, issueOf),
  )

/**
 * `refine` for a codec that decodes JSON numbers (`Money`): `holds` tells from the number
 * itself whether its decoded value keeps `predicate`, so a number that breaks the rule is
 * refused before it is decoded.
 */
export const refineNumber = <A, O>(
  codec: t.Type<A, O, unknown>,
  predicate: (a: A) => boolean,
  holds: (n: number) => boolean,
  issue: FieldIssue,
  name: string,
): t.Type<A, O, unknown> =>
  withFastPath(refine(codec, predicate, issue, name), (compile) => {
    const inner = compile(codec)
    const refined: FastDecoder = (u) => {
      if (typeof u === 'number') return holds(u) ? inner(u) : FAIL
      const a = inner(u)
      return failed(a) || !predicate(a as A) ? FAIL : a
    }
    return isRefusingAbsent(inner) ? refusesAbsent(refined) : refined
  })

const isObject = (u: unknown): u is Readonly<Record<string, unknown>> =>
  u !== null && typeof u === 'object' && !Array.isArray(u)

/** Errors of `codec` over `u` at `c`, none when it decodes. */
const errorsOf = (codec: t.Decoder<unknown, unknown>, u: unknown, c: t.Context): t.Errors => {
  const r = codec.validate(u, c)
  return r._tag === 'Left' ? r.left : []
}

/**
 * The codec `name` of a record giving exactly one of `first` and `second` (not
 * `undefined`), decoded as that key's codec and refused with its errors; a record giving
 * neither or both is refused as `notOne` says. Its fast form, and its collector of errors,
 * take the same steps.
 */
export const chosenByKey = <A1, O1, A2, O2>(
  name: string,
  [first, firstCodec]: readonly [string, t.Type<A1, O1, unknown>],
  [second, secondCodec]: readonly [string, t.Type<A2, O2, unknown>],
  notOne: NotExactlyOne,
): t.Type<A1 | A2, O1 | O2, unknown> => {
  const codec = new t.Type<A1 | A2, O1 | O2, unknown>(
    name,
    (u): u is A1 | A2 =>
      isObject(u) &&
      (u[first] === undefined
        ? u[second] !== undefined && secondCodec.is(u)
        : u[second] === undefined && firstCodec.is(u)),
    (u, c) => {
      if (!isObject(u)) return failure(u, c, requiredOrType(u, 'object'))
      const hasFirst = u[first] !== undefined
      const hasSecond = u[second] !== undefined
      if (hasFirst !== hasSecond)
        return hasFirst ? firstCodec.validate(u, c) : secondCodec.validate(u, c)
      return t.failures(
        hasFirst
          ? [failureAt(u, c, [first], notOne.both), ...errorsOf(secondCodec, u, c)]
          : [
              failureAt(u, c, [first], notOne.neither),
              failureAt(u, c, [second], notOne.neither),
              ...errorsOf(notOne.rest, u, c),
            ],
      )
    },
    (a) => (first in (a as object) ? firstCodec.encode(a as A1) : secondCodec.encode(a as A2)),
  )
  return withCollector(
    withFastPath(hinted(codec, { alternatives: [firstCodec, secondCodec] }), (compile) => {
      const firstOf = compile(firstCodec)
      const secondOf = compile(secondCodec)
      // One read per key, each at its own site (a keyed read of both would miss V8's cache).
      return (u) => {
        if (!isObject(u)) return FAIL
        const hasFirst = u[first] !== undefined
        if (hasFirst === (u[second] !== undefined)) return FAIL
        return hasFirst ? firstOf(u) : secondOf(u)
      }
    }),
    chosenErrors([first, firstCodec], [second, secondCodec], notOne),
  )
}

const NO_MEMBERS: object = Object.freeze({})

/**
 * The rule "at least one of `keys`" over a record, failing at each of them with `issue`
 * when none is given (not `undefined`); anything but a record passes (its own codec says
 * what it is). A branch of an intersection of records (so that its path is the record's),
 * it adds no member: a walk of the record checks it from the members it visits.
 */
export const atLeastOneOf = (
  keys: ReadonlyArray<string>,
  issue: FieldIssue,
  name: string,
): t.Type<object, object, unknown> => {
  const given = (u: Readonly<Record<string, unknown>>): boolean => {
    for (const k of keys) if (u[k] !== undefined) return true
    return false
  }
  const rule = withFastPath(
    new t.Type<object, object, unknown>(
      name,
      (u): u is object => isObject(u) && given(u),
      (u, c) =>
        !isObject(u) || given(u)
          ? t.success({})
          : t.failures(keys.map((k) => failureAt(u, c, [k], issue))),
      (a) => a,
    ),
    () => withOneOfForm((u) => (!isObject(u) || given(u) ? NO_MEMBERS : FAIL), keys),
  )
  return hinted(withCollector(rule, atLeastOneErrors(keys, issue)), {
    type: 'object',
    atLeastOne: keys,
  })
}
