// Serialises this document with the documents of its same-origin iframes
// (srcdoc ones too) inlined, each as <div data-blogharvest-iframe="src">
// right after its iframe, and the content of open shadow roots as a first
// child <div data-blogharvest-shadow> of their host. The copy is made in an inert document, so nothing loads or runs.
(function () {
  const inert = document.implementation.createHTMLDocument('');
  // The content of each open shadow root goes into its host's copy as a
  // first child <div data-blogharvest-shadow>, nested shadow roots too.
  const shadows = (live, copied, depth) => {
    const ls = live.querySelectorAll('*');
    const cs = copied.querySelectorAll('*');
    for (let i = 0; i < ls.length && i < cs.length && depth < 5; i++) {
      const sr = ls[i].shadowRoot;
      if (!sr) continue;
      const div = inert.createElement('div');
      div.setAttribute('data-blogharvest-shadow', '');
      for (const c of sr.childNodes) div.appendChild(inert.importNode(c, true));
      shadows(sr, div, depth + 1);
      cs[i].prepend(div);
    }
  };
  const copy = (doc, depth) => {
    const root = inert.importNode(doc.documentElement, true);
    const live = doc.querySelectorAll('iframe, frame');
    const copies = root.querySelectorAll('iframe, frame');
    shadows(doc, root, 0);
    for (let i = 0; i < live.length && i < copies.length && depth < 5; i++) {
      let inner = null;
      try { inner = live[i].contentDocument; } catch (e) { inner = null; }
      if (!inner || !inner.documentElement) continue;
      const div = inert.createElement('div');
      div.setAttribute('data-blogharvest-iframe', live[i].getAttribute('src') || 'about:srcdoc');
      const sub = copy(inner, depth + 1);
      const body = sub.querySelector('body') || sub;
      while (body.firstChild) div.appendChild(body.firstChild);
      copies[i].after(div);
    }
    return root;
  };
  const dt = document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\n' : '';
  return dt + copy(document, 0).outerHTML;
})
