/**
 * Fields of an input item named by a dotted path (`card.number`, `body.card.cvv`), as n8n's
 * own "field name" parameters name them. A segment is a plain key (it may hold spaces, as
 * n8n form fields do); there is no array syntax. Reading never throws; removing deletes
 * the key in place, so that the item n8n keeps (the upstream node's output is the same
 * object) no longer holds the value.
 */
import type { IDataObject } from 'n8n-workflow'

// -------------------------------------------------------------------------------------
// utils
// -------------------------------------------------------------------------------------

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const segmentsOf = (path: string): ReadonlyArray<string> =>
  path
    .split('.')
    .map((s) => s.trim())
    .filter((s) => s !== '')

// -------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------

/** The value at `path` in `json`, or undefined when any segment is missing. */
export const valueAt = (json: IDataObject, path: string): unknown => {
  let current: unknown = json
  for (const segment of segmentsOf(path)) {
    if (!isRecord(current) || !Object.prototype.hasOwnProperty.call(current, segment))
      return undefined
    current = current[segment]
  }
  return current
}

/** Deletes the value at `path` in `json` (in place); true when there was one. */
export const removeAt = (json: IDataObject, path: string): boolean => {
  const segments = segmentsOf(path)
  const last = segments[segments.length - 1]
  if (last === undefined) return false
  let parent: unknown = json
  for (const segment of segments.slice(0, -1)) {
    if (!isRecord(parent)) return false
    parent = parent[segment]
  }
  if (!isRecord(parent) || !Object.prototype.hasOwnProperty.call(parent, last)) return false
  Reflect.deleteProperty(parent, last)
  return true
}

/**
 * Whether a field name looks like card data typed in by mistake (a run of 12 or more
 * digits): such a parameter is refused without repeating it, since n8n saves it in clear.
 */
export const looksLikeCardNumber = (path: string): boolean => /\d[\d ]{10,}\d/.test(path)
