/**
 * Whether a model name is an alias that moves to newer builds as they come out: TypeSafe's
 * `jev-latest` and `jev-preview`, and any name that ends in `latest` or `preview` after `-`, `:`,
 * `.`, `_` or `/` (Ollama's `llama3.2:latest`, `gpt-5-chat-latest`). The API marks none itself.
 */
export function isAlias(name: string): boolean {
  return /(^|[-:._/])(latest|preview)$/i.test(name)
}
