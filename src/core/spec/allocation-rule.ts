/** How a question's review effort is spread over its strata (the spec's `allocation`). */
export type AllocationRule = 'neyman' | 'fixed'

/** The allocation rules a spec may name; the first is the default. */
export const ALLOCATION_RULES: readonly AllocationRule[] = ['neyman', 'fixed']
