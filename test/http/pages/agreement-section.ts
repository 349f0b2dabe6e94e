import t from 'tap'
import { agreementSection } from '../../../src/http/pages/agreement-section.ts'
import { agreementOf } from '../../helpers/agreement.ts'

t.test(
  'κ with raw agreement beside it, the weighted confusion, per-label scores, the people and the key',
  async (t) => {
    const text = agreementSection(['yes', 'no'], agreementOf(0.71)).text
    t.match(
      text,
      /Cohen's κ <strong>0\.71 \(0\.51 to 0\.81\)<\/strong>, raw agreement 90\.0% \(80\.0% to 95\.0%\), over 40 reviewed sample rows/,
    )
    t.match(
      text,
      /<tr><th>yes<\/th><td class="num">120<\/td><td class="num">30<\/td><\/tr>/,
      'model yes: 120 reviewed yes, 30 reviewed no',
    )
    t.match(text, /<tr><th>no<\/th><td>99\.0% \(89\.0% to 100\.0%\)<\/td><td>97\.0%/)
    t.match(
      text,
      /Between reviewers: κ <strong>1\.00 \(0\.60 to 1\.00\)<\/strong>, raw agreement 100\.0%, over 5 rows reviewed twice/,
    )
    t.match(text, /answer key was wrong on <strong>5\.0%<\/strong> \(2\.0% to 12\.0%\) of the 60 key rows/)
  },
)

t.test(
  'before any review it says why, and that nobody was reviewed twice; a flagged reviewer stands out; names are escaped',
  async (t) => {
    t.match(
      agreementSection(['yes', 'no'], agreementOf(null)).text,
      /Not yet: no reviewed random-sample row yet\.[\s\S]*No row reviewed twice yet/,
    )
    const flagged = agreementOf(0.5, {
      reviewers: { '<b>cal</b>': { rows: 30, agreement: 0.4, interval: [0.3, 0.55], flagged: true } },
    })
    const text = agreementSection(['yes', 'no'], flagged).text
    t.match(
      text,
      /&lt;b&gt;cal&lt;\/b&gt;: 30 rows, agreement 40\.0% \(30\.0% to 55\.0%\) <strong class="alert">far below the others<\/strong>/,
    )
    t.notMatch(text, /<b>cal/)
  },
)
