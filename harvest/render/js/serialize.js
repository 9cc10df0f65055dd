// Serialises this document with the documents of its same-origin iframes
// inlined, each as <div data-blogharvest-iframe="src"> right after its
// iframe. The copy is made in an inert document, so nothing loads or runs.
(function () {
  const inert = document.implementation.createHTMLDocument('');
  const copy = (doc, depth) => {
    const root = inert.importNode(doc.documentElement, true);
    const live = doc.querySelectorAll('iframe, frame');
    const copies = root.querySelectorAll('iframe, frame');
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
