import type { AllocationRule } from './spec/allocation-rule.ts'
import type { RunFit } from './fit/fit.ts'

/** The three kinds of question a spec can ask. */
export type QuestionType = 'yes_no' | 'choice' | 'scale'

/** One question of a judgment, as loaded from its spec. */
export interface Question {
  readonly name: string
  readonly ask: string
  readonly type: QuestionType
  /** Labels in spec order (for scale: low to high; for yes_no: yes, no). */
  readonly labels: readonly string[]
  /** Description per label, parallel to `labels`; null where none was given. */
  readonly descriptions: readonly (string | null)[]
  /** Hash of what the engine sees of this question; part of the cache key. */
  readonly fingerprint: string
}

/** A comparison such as `">= 0.9"`, parsed. */
export interface Comparison {
  readonly op: '<' | '<=' | '>' | '>=' | '==' | '!='
  readonly value: number
  readonly text: string
}

/** One routing rule of `act`: the first rule whose `when` holds sets the route. */
export interface ActRule {
  readonly route: string
  readonly when: {
    readonly label?: readonly string[]
    readonly p?: Comparison
    readonly margin?: Comparison
  }
}

/** One entry of a spec's `state`: a column of the row, or a label of another judgment. */
export interface StateColumn {
  /** The key in the state object: the column name, or `judgment.question`. */
  readonly name: string
  /** Set when the entry names another judgment's question (chaining). */
  readonly ref?: { readonly judgment: string; readonly question: string }
}

/** A loaded, validated spec file: one judgment. */
export interface Spec {
  readonly name: string
  /** Absolute path of the spec file. */
  readonly file: string
  /** Model named by the spec, or null for the configured default (or for a jury: see `jurors`). */
  readonly model: string | null
  /**
   * The jury a spec's `models:` names (two or more distinct models), or null for one model. Each juror's answers are
   * kept under its own model; the judgment's answer is the jury's (docs/review.md, "A jury").
   */
  readonly jurors: readonly Juror[] | null
  /**
   * `samples:`: how many times a question is asked of a model that gives no probabilities, its p the label's share
   * (docs/engine.md); null for the engine's setting (ENGINE_SAMPLES).
   */
  readonly samples: number | null
  readonly state: readonly StateColumn[]
  readonly questions: readonly Question[]
  readonly act: Readonly<Record<string, readonly ActRule[]>>
  /** Absolute path of the answer key, or null. */
  readonly key: string | null
  /** Absolute path of the reviews file (default `<name>.reviews.csv` beside the spec). */
  readonly reviews: string
  /** Absolute path of the default data file, or null. */
  readonly data: string | null
  /**
   * How the data file is read (`delimiter:`, `columns:`); absent or null fields read it by its extension and header
   * line.
   */
  readonly dataFormat?: { readonly delimiter: string | null; readonly columns: readonly string[] | null }
  /** Absolute path of the anchors file (rows a model change is measured on), or null. */
  readonly anchors: string | null
  /** How the key's rows were picked: only a `random` key counts toward the sampling-aware estimate. */
  readonly keySample: 'chosen' | 'random'
  /** Answers whose margin is below this form the unsure stratum (default DEFAULT_UNSURE_BELOW). */
  readonly unsureBelow: number
  readonly minAccuracy: number | null
  /**
   * A run whose median option mass of a question is below this says the question does not fit its rows
   * (DEFAULT_MIN_FIT).
   */
  readonly minFit: number
  readonly doubleReview: number // share of reviewed sample rows a second reviewer sees (DEFAULT_DOUBLE_REVIEW)
  /** The accuracy interval's half-width wanted (`accuracy_target`), or null. */
  readonly accuracyTarget: number | null
  /** How the queue spreads spot checks over the strata (`allocation`, core/allocation). */
  readonly allocation: AllocationRule
  readonly retainDays: number | null // days row values are kept (docs/privacy.md); null keeps them until forgotten
  /** Hash of the spec file's content. */
  readonly hash: string
}

/** A spec file or folder of specs, loaded with its judgments in dependency order. */
export interface Project {
  /** Absolute path that was loaded (file or folder). */
  readonly path: string
  /** Folder holding the specs. */
  readonly dir: string
  /** Every judgment of the folder, dependencies before dependents. */
  readonly specs: readonly Spec[]
  /** The judgments the path selects (one for a spec file, all for a folder). */
  readonly selected: readonly Spec[]
}

/** A row of data: column name to value. */
export type Row = Readonly<Record<string, unknown>>

/** A state: the state columns' values as strings, in spec order. */
export type State = Readonly<Record<string, string>>

/** Probability per label. */
export type Distribution = Readonly<Record<string, number>>

import type { ProbabilitySource } from './probability-sources.ts'
export type { ProbabilitySource }

/** Answers counted by how their p was obtained; a source with none is absent. */
export type SourceCounts = Readonly<Partial<Record<ProbabilitySource, number>>>

/**
 * One model of a jury (a spec's `models:`): the model, and the engine that asks it when it is not the configured one.
 */
export interface Juror {
  /** The model named, as the spec gives it. */
  readonly model: string
  /** The engine's name (ENGINE_KINDS), or null for the configured ENGINE. */
  readonly engine: string | null
}

/** The answer to one question (docs/http-api.md, `POST /v1/judge`). */
export interface Answer {
  readonly label: string
  readonly p: number
  readonly margin: number
  readonly route: string
  readonly cached: boolean
  /** How p was obtained (PROBABILITY_SOURCES); null for an answer stored before judge recorded it. */
  readonly p_source: ProbabilitySource | null
}

/** Answers keyed by question name. */
export type Answers = Record<string, Answer>

/**
 * Rows per route of each question that has `act` rules, as a run records them: question, then
 * route, then rows. The route `""` counts the rows no rule routed.
 */
export type RouteCounts = Readonly<Record<string, Readonly<Record<string, number>>>>

/** A run record (docs/http-api.md, `GET /v1/runs`), with the CLI's additions and what the run ran on. */
export interface RunRecord {
  readonly run_id: string
  readonly judgment: string
  readonly spec_hash: string
  readonly git_sha: string
  readonly model: string
  readonly rows: number
  readonly asked: number
  readonly cost: number
  readonly status: string
  readonly started_at: string
  readonly finished_at: string
  readonly cached: number // answers from the store (rows repeating an earlier row's state not counted)
  readonly requests: number
  /** The command that judged the rows: `run`, `test` or `replay` ("" before runs recorded it). */
  readonly command: string
  /** What the rows were: a data file's path from the spec folder, `answer key`, `kept rows of X`. */
  readonly source: string
  /** Hash of the source's content: the data or key file's bytes, or the kept rows' states. */
  readonly source_hash: string
  /** The judgment the command was asked for: this one, or the dependents it was judged for. */
  readonly node: string
  /** The model the engine reported for the run's answers ("" when unknown). */
  readonly reported_model: string
  readonly states: number // distinct states judged; `rows - states` rows repeated an earlier row's state
  /** Each question's fingerprint when the run was made, so that a later plan sees what changed. */
  readonly fingerprints: Readonly<Record<string, string>>
  /**
   * How well each question fitted its rows, from its answers' option mass (core/fit/); stores give `{}` before runs
   * kept it.
   */
  readonly fit?: RunFit
  /** Rows per route of each question with `act` rules (the spec's output); stores give `{}` before runs kept them. */
  readonly routes?: RouteCounts
  /**
   * Per question, its answers by how their p was obtained (PROBABILITY_SOURCES), counted once per distinct state as
   * `fit` is; stores give `{}` before runs kept them.
   */
  readonly sources?: Readonly<Record<string, SourceCounts>>
}

/** A state a run judged, with how many of its rows had that state. */
export interface RunState {
  readonly stateHash: string
  readonly rows: number
}

export type { DriftEntry, LabelCount, ModelCheck, ModelPair } from './reports/report-types.ts'

/** A row with where it came from (`file:line`, `kept row …`), for error messages. */
export interface SourcedRow {
  readonly row: Row
  readonly where: string
}
