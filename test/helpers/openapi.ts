import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'

type Node = Record<string, any>

/** docs/openapi.yaml as it is written, parsed. */
export const openapi: Node = parse(readFileSync(resolve(import.meta.dirname, '../../docs/openapi.yaml'), 'utf8'))

// The document's own name for Ajv: a `$ref` such as '#/components/schemas/Answer' resolves within it.
const ID = 'openapi.yaml'
// Words an OpenAPI 3.1 document and its schema objects use beside JSON Schema 2020-12's keywords.
const OPENAPI_WORDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  'discriminator',
  'xml',
  'example',
]

/** A JSON pointer fragment ('#/a/b~1c') to the place `keys` name. */
export function pointer(...keys: string[]): string {
  return within('#', ...keys)
}

function within(fragment: string, ...keys: string[]): string {
  return [fragment, ...keys.map((key) => key.replaceAll('~', '~0').replaceAll('/', '~1'))].join('/')
}

/** Ajv (JSON Schema 2020-12, strict, every error) holding the whole document under its name. */
export function openapiAjv(document: Node = openapi): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
  addFormats.default(ajv)
  ajv.addVocabulary(OPENAPI_WORDS)
  ajv.addSchema({ ...document, $id: ID })
  return ajv
}

/** The validator of the schema at `at` (a pointer fragment) of the document; throws when it does not compile. */
export function validatorAt(ajv: Ajv2020, at: string): ValidateFunction {
  const validate = ajv.getSchema(ID + at)
  if (!validate) throw new Error(`no schema at ${at} of ${ID}`)
  return validate
}

/** Where the item of `path` is: an item that is a `$ref` (an earlier URL of a page's twin) stands for its target. */
function itemPointer(path: string, document: Node): string {
  const item = document.paths[path]
  return typeof item?.$ref === 'string' ? item.$ref : pointer('paths', path)
}

/** The path item of `path`, its `$ref` followed: its operations by method. */
export function pathItem(path: string, document: Node = openapi): Node {
  return at(document, itemPointer(path, document)) ?? {}
}

/** Where the JSON body of `status` to `method path` is described: a path item or response `$ref` followed. */
export function responsePointer(method: string, path: string, status: number, document: Node = openapi): string {
  const operation = within(itemPointer(path, document), method.toLowerCase())
  const response = at(document, within(operation, 'responses', String(status)))
  if (!response) throw new Error(`${method} ${path} does not document status ${status}`)
  const described = typeof response.$ref === 'string' ? response.$ref : within(operation, 'responses', String(status))
  return within(described, 'content', 'application/json', 'schema')
}

/** The problems Ajv finds with `value`, each as where it is and what is wrong; [] when it matches. */
export function problems(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return []
  return (validate.errors ?? []).map((e) => `$${e.instancePath} ${e.message}${detail(e.params)}`)
}

function detail(params: Record<string, unknown>): string {
  const named = params.additionalProperty ?? params.allowedValues
  return named === undefined ? '' : ` (${JSON.stringify(named)})`
}

function at(document: Node, fragment: string): Node | undefined {
  return fragment
    .slice(2)
    .split('/')
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((node: any, key) => node?.[key], document)
}
