/** better-sqlite3 refuses `undefined` bindings; drop the unset (optional filter) fields of a named-parameter object. */
export function bindable(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
