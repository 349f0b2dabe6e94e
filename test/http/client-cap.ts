import t from 'tap'
import { clientAddress } from '../../src/http/client-cap.ts'

t.test('an IPv4 client of an IPv6 socket counts as its IPv4 address', async (t) => {
  t.equal(clientAddress('::ffff:127.0.0.2'), '127.0.0.2')
  t.equal(clientAddress('::FFFF:10.0.0.1'), '10.0.0.1')
  t.equal(clientAddress('127.0.0.2'), '127.0.0.2')
  t.equal(clientAddress('::1'), '::1')
  t.equal(clientAddress('::ffff:1:2'), '::ffff:1:2', 'an IPv6 address that only starts alike stays as it is')
  t.equal(clientAddress(undefined), '', 'a socket already gone has no address')
})
