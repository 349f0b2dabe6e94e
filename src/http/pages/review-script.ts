import { raw, type Html } from '../html.ts'

/**
 * The review page's one script: single keys on the current card (1-9 its verdict buttons in
 * order, `u` undo, `s` skip to the next card, `?` more about keys), ignored while typing in a
 * field or with a modifier held. Inline and fixed, allowed by its hash in the page's
 * Content-Security-Policy (reply.ts); the page works without it (forms and access keys). It also
 * sends a card's note field with the verdict pressed on the card. After a verdict or an undo (the
 * page has a banner) the first button of the first card takes the focus; nothing it focuses
 * scrolls the page, and a skip brings the next card's top just under the banner, so the outcome of
 * the last action and the current card's question stay in view.
 */
export const REVIEW_SCRIPT = `(function () {
  var current = function () { return document.querySelector('section.review-card.current'); };
  var buttons = function (card) { return card ? card.querySelectorAll('.verdicts button') : []; };
  var focusFirst = function (card) { var b = buttons(card)[0]; if (b) { b.focus({ preventScroll: true }); } };
  var banner = document.querySelector('#queue > .banner');
  // Once loaded: opening at #queue moves the focus to the page itself, after the script has run.
  if (banner) { window.addEventListener('load', function () { focusFirst(current()); }); }
  var bring = function (card) {
    var top = card.getBoundingClientRect().top + window.scrollY - (banner ? banner.offsetHeight : 0) - 8;
    window.scrollTo(0, Math.max(0, top));
  };
  document.addEventListener('focusin', function (e) {
    var card = e.target.closest && e.target.closest('section.review-card');
    var was = current();
    if (card && card !== was) { if (was) { was.classList.remove('current'); } card.classList.add('current'); }
  });
  document.addEventListener('submit', function (e) {
    var form = e.target;
    var card = form.closest && form.closest('section.review-card');
    var field = card && card.querySelector('input.note');
    if (!field || !field.value) { return; }
    var note = form.querySelector('input[name="note"]');
    if (!note) { note = document.createElement('input'); note.type = 'hidden'; note.name = 'note'; \
form.appendChild(note); }
    note.value = field.value;
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.isComposing || e.defaultPrevented) { return; }
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) { \
return; }
    var card = current();
    var help = document.getElementById('keys-help');
    if (/^[1-9]$/.test(e.key)) {
      var b = buttons(card)[Number(e.key) - 1];
      if (b) { e.preventDefault(); b.click(); }
    } else if (e.key === 'u') {
      var undo = document.querySelector('form[action="/review/undo"] button');
      if (undo) { e.preventDefault(); undo.click(); }
    } else if (e.key === 's' && card) {
      var next = card.nextElementSibling;
      while (next && !(next.classList && next.classList.contains('review-card'))) { next = next.nextElementSibling; }
      if (next) { e.preventDefault(); card.classList.remove('current'); next.classList.add('current'); \
bring(next); focusFirst(next); }
    } else if (e.key === '?' && help) {
      e.preventDefault();
      help.hidden = !help.hidden;
    }
  });
})();`

/** The script element of the review page. */
export function reviewScript(): Html {
  return raw(`<script>${REVIEW_SCRIPT}</script>`)
}
