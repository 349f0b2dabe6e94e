import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** What one remote address holds now, and what it was refused since it last held nothing. */
interface ClientCount {
  open: number
  refused: number
}

/** The per-client cap of a server: what it has refused, for the log and for tests. */
export interface ClientCap {
  /** Connections closed over the cap since the server started, over every address. */
  refused(): number
}

/**
 * The address a connection comes from, one spelling per client: an IPv4 client of a server
 * listening on IPv6 comes as `::ffff:a.b.c.d` and is counted as `a.b.c.d`.
 */
export function clientAddress(remote: string | undefined): string {
  const address = (remote ?? '').toLowerCase()
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
}

/**
 * Caps the connections one remote address holds open at once: a connection over `cap` is closed
 * as it arrives, before a byte of it is read, and counted. Connections of other addresses are
 * untouched. Logs twice per address and episode: at its first refusal, and with the count once the
 * address holds nothing again, so that a flood writes two lines, not one per connection.
 */
export function capPerClient(server: Server, cap: number, log: (line: string) => void): ClientCap {
  const clients = new Map<string, ClientCount>()
  let refused = 0
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket.remoteAddress)
    let client = clients.get(address)
    if (!client) clients.set(address, (client = { open: 0, refused: 0 }))
    if (client.open >= cap) {
      refused += 1
      if (client.refused++ === 0)
        log(`connections from ${address} over JUDGE_MAX_CONNECTIONS_PER_CLIENT (${cap}) are closed as they arrive`)
      socket.destroy()
      return
    }
    client.open += 1
    socket.once('close', () => {
      if (--client.open > 0) return
      clients.delete(address)
      if (client.refused > 0)
        log(
          `closed ${client.refused} connection${client.refused === 1 ? '' : 's'} from ${address} over ` +
            `JUDGE_MAX_CONNECTIONS_PER_CLIENT (${cap})`,
        )
    })
  })
  return { refused: () => refused }
}
