import { PAGE_SIZE } from './queue.ts'

/**
 * How many rows a reviewer's page may hold (docs/review.md, Leases): at most its `page` of cards,
 * and never so many that the holds of every reviewer together leave fewer than a page of the
 * `waiting` rows unheld (half of them, in a queue shorter than two pages). `others` is the rows
 * other reviewers hold now. However many names take holds, whoever comes next is shown cards.
 */
export function holdAllowance(page: number, waiting: number, others: number): number {
  const unheld = Math.min(PAGE_SIZE, Math.ceil(waiting / 2))
  return Math.max(0, Math.min(page, waiting - unheld - others))
}
