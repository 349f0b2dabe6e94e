/** The query parameter `name`, with an empty value counted as absent (an empty form field). */
export function param(query: URLSearchParams, name: string): string | null {
  const value = query.get(name)
  return value === null || value === '' ? null : value
}
