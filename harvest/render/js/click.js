// Clicks the first usable "load more" control of this document and returns
// its label, or "" when none is left. A control whose last click added no
// element to the document is not clicked again. State lives in the isolated
// world's window, invisible to the page.
(function (selectors, pattern, maxPer) {
  const st = window.__blogharvest || (window.__blogharvest = { dead: new WeakSet(), count: new WeakMap(), pending: null });
  const size = document.getElementsByTagName('*').length;
  if (st.pending) {
    if (size <= st.pending.size) st.dead.add(st.pending.el);
    st.pending = null;
  }
  const rx = new RegExp(pattern, 'i');
  const here = location.href.split('#')[0];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const usable = (el) => {
    if (st.dead.has(el) || !el.isConnected || el.disabled) return false;
    if (el.getAttribute('aria-disabled') === 'true') return false;
    if ((st.count.get(el) || 0) >= maxPer) return false;
    if (el.tagName === 'A') {
      const h = el.getAttribute('href');
      if (h && !/^\s*(#|javascript:)/i.test(h) && el.href.split('#')[0] !== here) return false;
    }
    if ((el.tagName === 'BUTTON' || el.tagName === 'INPUT') && el.form && el.type === 'submit') return false;
    return visible(el);
  };
  const cands = [];
  for (const s of selectors) {
    try { document.querySelectorAll(s).forEach((e) => cands.push(e)); } catch (e) { /* bad selector */ }
  }
  document.querySelectorAll('button, a, [role=button], input[type=button]').forEach((e) => {
    const t = (e.tagName === 'INPUT' ? e.value : e.textContent || '').trim();
    if (t.length > 0 && t.length <= 80 && rx.test(t)) cands.push(e);
  });
  for (const el of cands) {
    if (!usable(el)) continue;
    st.count.set(el, (st.count.get(el) || 0) + 1);
    st.pending = { el: el, size: size };
    el.scrollIntoView({ block: 'center' });
    el.click();
    return ((el.tagName === 'INPUT' ? el.value : el.textContent) || '').trim().slice(0, 60) || el.tagName.toLowerCase();
  }
  return '';
})
