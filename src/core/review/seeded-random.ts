/** The seeded generator, where the drift tests of core/reports/ still import it from. */
export { seededRandom } from '../stats/seeded-random.ts'
