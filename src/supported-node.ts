// The library's entries import this module first, so that it runs before any module that needs
// node:sqlite: on an older Node, the library stops with the sentence the `judge` command prints
// (bin/judge.js), not with Node's own error deep inside the store.

/** The oldest major version of Node the package runs on: node:sqlite came with it. */
export const OLDEST_NODE = 24

/** What the package says on a Node older than OLDEST_NODE; bin/judge.js prints the same. */
export function oldNodeMessage(version: string, execPath: string): string {
  return (
    `judge needs Node ${OLDEST_NODE} or newer (it uses node:sqlite); this is Node ${version} (${execPath}).\n` +
    `Install Node ${OLDEST_NODE} from https://nodejs.org/ (or with nvm: nvm install ${OLDEST_NODE}), ` +
    'or pin it in your project\n' +
    `with npm install --save-dev node@${OLDEST_NODE}: npx judge and npm scripts then run with it.`
  )
}

/** Throws an Error saying which Node the package needs when `version` is older than OLDEST_NODE. */
export function refuseOldNode(version: string, execPath: string): void {
  if (Number(version.split('.')[0]) < OLDEST_NODE) throw new Error(oldNodeMessage(version, execPath))
}

refuseOldNode(process.version.slice(1), process.execPath)
