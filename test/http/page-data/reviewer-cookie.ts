import t from 'tap'
import { cookieReviewer, reviewerCookieHeaders } from '../../../src/http/page-data/reviewer-cookie.ts'

t.test('the reviewer cookie holds a valid name, escaped; anything else is ignored', async (t) => {
  const page = { headers: {} }
  const set = reviewerCookieHeaders({ reviewer: 'Ann Lee' }, page)['set-cookie']
  t.equal(set, 'judge_reviewer=Ann%20Lee; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly')
  t.equal(cookieReviewer({ cookie: `other=1; ${set.split(';')[0]}; x=y` }), 'Ann Lee', 'read back')
  t.same(reviewerCookieHeaders({ reviewer: null }, page), {}, 'no name, no cookie')
  t.same(reviewerCookieHeaders({ reviewer: '=cmd|x' }, page), {}, 'never an invalid name')
  const embedded = {
    headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  }
  t.same(reviewerCookieHeaders({ reviewer: 'mallory' }, embedded), {}, 'not from the page: no cookie')
  t.equal(cookieReviewer({}), null)
  t.equal(cookieReviewer({ cookie: 'judge_reviewer=%3Cscript%3E' }), null, 'not a name')
  t.equal(cookieReviewer({ cookie: 'judge_reviewer=%E0%A4%A' }), null, 'not decodable')
  t.equal(cookieReviewer({ cookie: 'judge_reviewerx=ann; junk' }), null, 'another cookie')
})
