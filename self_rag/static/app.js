// self_rag web app: plain JavaScript, no dependencies. Every text from the server goes into the page as text, never as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k != null) e.append(k instanceof Node ? k : String(k));
  return e;
}
const fmtMs = (ms) => (ms >= 1000 ? (ms / 1000).toFixed(2) + " s" : ms.toFixed(ms < 10 ? 1 : 0) + " ms");
const pages = (ps) => (!ps || !ps.length ? "" : ps.length === 1 ? "p. " + ps[0] : `pp. ${ps[0]}-${ps[ps.length - 1]}`);
const place = (x) => x.where || [pages(x.pages), x.section && "§ " + x.section].filter(Boolean).join(", ");
function toast(msg) { const t = $("#toast"); t.textContent = msg; t.hidden = false; clearTimeout(toast.t); toast.t = setTimeout(() => (t.hidden = true), 4000); }

// ---- API --------------------------------------------------------------------------------------------------
async function api(path, opts = {}) {
  const init = { ...opts, headers: { ...(opts.body && !(opts.body instanceof FormData) ? { "Content-Type": "application/json" } : {}), ...(opts.headers || {}) } };
  if (init.body && typeof init.body !== "string" && !(init.body instanceof FormData)) init.body = JSON.stringify(init.body);
  const r = await fetch(path, init);
  if (r.status === 401 && !path.startsWith("/api/login")) { await login(); return api(path, opts); }
  if (!r.ok) {
    let detail = r.statusText;
    try { const j = await r.json(); detail = typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail); } catch (_) {}
    throw new Error(detail);
  }
  return r.status === 204 ? null : r.headers.get("content-type")?.includes("json") ? r.json() : r;
}
const coll = () => $("#collection").value;
const docPath = (c, what = "") => `/api/collections/${encodeURIComponent(c)}/document${what}`;

function login() {
  return new Promise((resolve) => {
    const d = $("#login"), f = $("#login-form");
    f.onsubmit = async (ev) => {
      ev.preventDefault();
      const r = await fetch("/api/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: $("#token").value }) });
      if (r.ok) { $("#token").value = ""; d.close(); resolve(); }
      else $("#login-error").textContent = (await r.json()).detail || "Wrong token";
    };
    if (!d.open) d.showModal();
  });
}

// ---- Collections ------------------------------------------------------------------------------------------
async function loadCollections(keep) {
  const data = await api("/api/collections");
  const sel = $("#collection"), was = keep || sel.value || localStorage.getItem("collection");
  sel.replaceChildren(...data.collections.map((c) => el("option", { value: c.name }, `${c.name} (${c.documents})`)));
  if (data.collections.some((c) => c.name === was)) sel.value = was;
  return data.collections;
}

// ---- The viewer: a citation or a hit, on its page ---------------------------------------------------------
async function openSource(c, x, quote) {
  const v = $("#viewer"), body = $("#viewer-body");
  $("#viewer-title").textContent = `${x.source}, ${place(x)}`;
  body.replaceChildren(el("p", { class: "muted" }, "loading..."));
  if (!v.open) v.showModal();
  const isPdf = /\.pdf(\.gz)?$/i.test(x.path || x.source);   // a gzip-compressed PDF is drawn too
  if (isPdf) {
    const shown = (x.pages && x.pages.length ? x.pages : [1]);
    body.replaceChildren(...shown.flatMap((p) => {
      const q = new URLSearchParams({ source: x.source, page: p, quote, scale: 1.6 });
      return [el("div", { class: "page-label" }, `page ${p}`), el("img", { class: "page", src: docPath(c, "/page?") + q, alt: `Page ${p} of ${x.source}, the quoted passage highlighted` })];
    }));
    const imgs = [...body.querySelectorAll("img.page")];
    (async () => {   // scroll to the quote on the first of the pages that holds it
      for (const [i, p] of shown.entries()) {
        const hl = await api(docPath(c, "/highlight?") + new URLSearchParams({ source: x.source, page: p, quote }));
        if (!hl.found) continue;
        const img = imgs[i], go = () => v.scrollTo({ top: img.offsetTop + (hl.boxes[0].y / hl.height) * img.clientHeight - v.clientHeight / 3 });
        if (img.complete) go(); else img.addEventListener("load", go);
        return;
      }
      imgs[0].before(el("p", { class: "muted" }, `The quoted words could not be placed on ${shown.length > 1 ? "these pages" : "this page"}: shown without a highlight.`));
    })().catch(() => {});
    return;
  }
  try {
    const q = new URLSearchParams({ source: x.source, quote });
    if (x.pages && x.pages.length) q.set("page", x.pages[0]);
    const p = await api(docPath(c, "/passage?") + q);
    const pre = el("div", { class: "passage" });
    if (p.start == null) pre.append(p.text);
    else pre.append(p.text.slice(0, p.start), el("mark", {}, p.text.slice(p.start, p.end)), p.text.slice(p.end));
    body.replaceChildren(el("div", { class: "page-label" }, p.where || p.section || ""), pre);
    pre.querySelector("mark")?.scrollIntoView({ block: "center" });
  } catch (e) { body.replaceChildren(el("p", { class: "error" }, e.message)); }
}

// ---- Ask --------------------------------------------------------------------------------------------------
const NODE_WORDS = { retrieval_decision: "retrieval decision", retrieve: "retrieve", relevance_grader: "relevance grades", context_builder: "context",
  generator: "generate", support_grader: "support grade", usefulness_grader: "usefulness grade", increment_retry: "retry: generate again",
  increment_retry_for_retrieval: "retry: rewrite the query and retrieve again" };
function stepItem(s) {
  const info = Object.entries(s.info || {}).map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : v}`).join("  ");
  return el("li", {}, el("strong", {}, NODE_WORDS[s.node] || s.node), " ", el("span", { class: "ms" }, fmtMs(s.ms)),
    s.llm_calls ? el("span", { class: "ms" }, ` · ${s.llm_calls} model call${s.llm_calls > 1 ? "s" : ""}`) : null,
    info ? el("div", { class: "info" }, info) : null, ...(s.notes || []).map((n) => el("div", { class: "muted" }, n)));
}
// A model writes Markdown; the extractive answer quotes document lines (R prompts, "#" comments, "*" bullets). Both stay
// line by line: only fenced code, **bold** and `code` spans are rendered, and each [Doc N] becomes its citation.
const INLINE = /(\[Doc \d+\]|`[^`\n]+`|(?<![\w*])\*\*(?=\S)[^*\n]+?(?<=\S)\*\*(?![\w*]))/;
function inlineNodes(text, cite) {
  return text.split(INLINE).filter(Boolean).map((part) => {
    const m = part.match(/^\[Doc (\d+)\]$/);
    if (m) return cite(part, +m[1]);
    if (/^`[^`]+`$/.test(part)) return el("code", {}, part.slice(1, -1));
    if (/^\*\*[^*]+\*\*$/.test(part) && part.length > 4) return el("strong", {}, ...inlineNodes(part.slice(2, -2), cite));
    return part;
  });
}
function answerText(a, c) {
  const byDoc = Object.fromEntries(a.citations.map((x) => [x.doc, x]));
  const cite = (part, n) => { const x = byDoc[n];
    return x ? el("button", { type: "button", class: "cite", title: `${x.source}, ${place(x)}`, onclick: () => openSource(c, x, x.quote) }, part) : part; };
  const out = el("div", { class: "text" });
  a.answer.split(/^```[^\n]*\n([\s\S]*?)^```[ \t]*$/m).forEach((b, i) =>   // odd pieces: the code of a fenced block
    out.append(...(i % 2 ? [el("pre", { class: "code" }, el("code", {}, b.replace(/\n$/, "")))] : inlineNodes(i ? b.replace(/^\n/, "") : b, cite))));
  return out;
}
function showAnswer(a, c, box = $("#answer")) {
  const grades = `support: ${a.support ?? "n/a"} · usefulness: ${a.usefulness ?? "n/a"} · retries: ${a.retries} · ${a.model} · ${fmtMs(a.ms)}`;
  const kids = [answerText(a, c), el("div", { class: "grades" }, grades)];
  if (a.citations.length) kids.push(el("h2", {}, "Sources"), el("ol", { class: "hits" }, a.citations.map((x) =>
    el("li", {}, el("div", { class: "head" }, el("button", { type: "button", class: "link", onclick: () => openSource(c, x, x.quote) }, `[Doc ${x.doc}] ${x.source}`), el("span", { class: "muted" }, place(x))),
      el("div", { class: "quote" }, "“" + x.quote + "”")))));
  if (a.rejected?.length) kids.unshift(el("div", { class: "abstain" }, el("strong", {}, "The documents do not answer this. "),
    "The closest passages found, each graded not relevant, and why:"), hitList(a.rejected, c));
  kids.push(...a.notes.map((n) => el("p", { class: "muted" }, n)));
  box.replaceChildren(...kids);
}
async function* sseEvents(resp) {
  // The server-sent events of a fetch response, as [name, data] pairs.
  const reader = resp.body.getReader(), dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      const ev = /^event: (.*)$/m.exec(block)?.[1], data = /^data: (.*)$/m.exec(block)?.[1];
      if (ev) yield [ev, JSON.parse(data)];
    }
  }
}
async function ask(ev) {
  ev.preventDefault();
  const question = $("#question").value.trim(), c = coll(), btn = $("#ask-form button");
  if (!question) return;
  $("#steps").replaceChildren(el("li", { class: "running" }, "starting...")); $("#answer").replaceChildren();
  btn.disabled = true;
  try {
    const r = await api("/api/ask", { method: "POST", body: { question, collection: c || null } });
    for await (const [ev, d] of sseEvents(r)) {
      const steps = $("#steps"), running = steps.querySelector(".running");
      if (ev === "start") running.textContent = d.loading ? "loading the graph..." : "deciding whether to retrieve...";
      else if (ev === "step") { steps.insertBefore(stepItem(d), running); running.textContent = "working..."; }
      else if (ev === "answer") { running?.remove(); showAnswer(d, c); }
      else if (ev === "error") { running?.remove(); $("#answer").replaceChildren(el("p", { class: "error" }, d.detail)); }
    }
  } catch (e) { $("#steps .running")?.remove(); $("#answer").replaceChildren(el("p", { class: "error" }, e.message)); }
  finally { btn.disabled = false; }
}

// ---- Search -----------------------------------------------------------------------------------------------
function hitList(hits, c) {
  return el("ol", { class: "hits" }, hits.map((h) => el("li", {},
    el("div", { class: "head" }, el("button", { type: "button", class: "link", onclick: () => openSource(c, h, h.text) }, h.source),
      el("span", { class: "muted" }, place(h)), el("span", { class: "score" }, h.score.toFixed(4))),
    el("div", { class: "text" }, h.text), h.why ? el("div", { class: "why" }, `Not relevant: ${h.why}`) : null)));
}
function waterfall(trace) {
  const total = trace.reduce((s, t) => s + t.ms, 0) || 1;
  let at = 0;
  return el("div", { class: "waterfall", role: "img", "aria-label": "Time of each stage" }, trace.map((t) => {
    const row = el("div", { class: "bar-row" }, el("span", {}, `${t.name} (${t.count})`),
      el("div", { class: "track" }, el("div", { class: "bar", style: `left:${(100 * at) / total}%;width:${(100 * t.ms) / total}%`, title: t.note || "" })),
      el("span", { class: "num" }, fmtMs(t.ms)));
    at += t.ms; return row;
  }), el("div", { class: "muted" }, `total ${fmtMs(total)}`));
}
const clip = (t, n = 240) => { t = (t || "").replace(/\s+/g, " ").trim(); return t.length <= n ? t : t.slice(0, n - 1).trimEnd() + "…"; };
function nameCell(td, x) {
  // A candidate as a person knows it: its document and place, then its first words (all of them on hover); or its id, if it is gone.
  if (!x.found) { td.replaceChildren(el("span", { class: "muted" }, `chunk ${x.chunk_id.slice(0, 8)} (no longer in the collection)`)); td.title = `chunk ${x.chunk_id}`; return; }
  td.replaceChildren(el("span", { class: "cand-doc" }, x.source), el("span", { class: "muted" }, ` · ${place(x)}`), el("div", { class: "excerpt" }, x.excerpt));
  td.title = `${x.excerpt}\n\nchunk ${x.chunk_id}`;
}
function nameWhenShown(table, collection, cells, hit) {
  // Once the table first comes into view, one lookup names every candidate that is not a hit, and marks a hit whose document is gone since.
  const ids = Object.keys(cells);
  if (!ids.length) { table.dataset.named = "yes"; return; }
  const name = async () => {
    try {
      const got = await api(`/api/collections/${encodeURIComponent(collection)}/chunks`, { method: "POST", body: { ids } });
      for (const x of got) {
        if (!hit[x.chunk_id]) nameCell(cells[x.chunk_id], x);
        else if (!x.found) cells[x.chunk_id].querySelector(".muted").append(" (no longer in the collection)");
      }
      table.dataset.named = "yes";
    } catch (e) {
      table.before(el("p", { class: "notice" }, `The candidates that are not hits could not be named: ${e.message}`));
      table.dataset.named = "failed";
    }
  };
  const seen = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) { seen.disconnect(); name(); } }, { rootMargin: "400px" });
  seen.observe(table);
}
function rankTable(trace, hits, collection) {
  const ids = [...new Set(trace.flatMap((t) => t.ranks.map((r) => r.chunk_id)))];
  const rank = trace.map((t) => Object.fromEntries(t.ranks.map((r) => [r.chunk_id, r])));
  const last = rank[rank.length - 1] || {};
  ids.sort((a, b) => (last[a]?.rank ?? 1e9) - (last[b]?.rank ?? 1e9) || (rank[0][a]?.rank ?? 1e9) - (rank[0][b]?.rank ?? 1e9));
  const cell = (r, i, id) => {
    if (!r) return el("td", { class: "num out" }, i > 0 && rank[i - 1][id] ? "out" : "");
    const d = r.prev_rank == null ? null : r.prev_rank - r.rank;
    return el("td", { class: "num" }, String(r.rank), i === 0 ? "" : d == null ? el("span", { class: "new" }, " new") : d > 0 ? el("span", { class: "up" }, ` ↑${d}`) : d < 0 ? el("span", { class: "down" }, ` ↓${-d}`) : "");
  };
  const hit = Object.fromEntries(hits.map((h) => [h.chunk_id, h])), cells = {};
  const label = (id) => {
    const td = cells[id] = el("td", { class: "cand" }), h = hit[id];
    if (h) nameCell(td, { ...h, found: true, excerpt: clip(h.text) });
    else td.append(el("span", { class: "muted" }, `chunk ${id.slice(0, 8)} · naming...`));
    return td;
  };
  const table = el("table", { class: "table ranks" }, el("thead", {}, el("tr", {}, el("th", {}, "candidate"), trace.map((t) => el("th", { class: "num" }, t.name)))),
    el("tbody", {}, ids.map((id) => el("tr", { class: hit[id] ? "hit" : "dropped", "data-chunk": id }, label(id), rank.map((m, i) => cell(m[id], i, id))))));
  nameWhenShown(table, collection, cells, hit);
  return table;
}
function retrievalView(r) {
  return [el("h2", {}, "The funnel"), waterfall(r.trace), el("h2", {}, `${r.hits.length} hits for “${r.query}” in ${r.collection}`),
    hitList(r.hits, r.collection), el("h2", { id: "rank-changes" }, "Rank changes: each candidate's rank after each stage"), rankTable(r.trace, r.hits, r.collection)];
}
async function search(ev) {
  ev.preventDefault();
  const out = $("#search-out");
  out.replaceChildren(el("p", { class: "muted" }, "searching..."));
  try {
    const r = await api("/api/search", { method: "POST", body: { query: $("#query").value, collection: coll() || null, top_k: +$("#top-k").value || null } });
    out.replaceChildren(...retrievalView(r));
  } catch (e) { out.replaceChildren(el("p", { class: "error" }, e.message)); }
}

// ---- Library ----------------------------------------------------------------------------------------------
let libTimer = null;
async function showLibrary() {
  const cols = await loadCollections();
  const c = coll();
  $("#collections").replaceChildren(...cols.map((x) => el("li", {}, el("button", { type: "button", "aria-pressed": String(x.name === c),
    onclick: () => { $("#collection").value = x.name; localStorage.setItem("collection", x.name); showLibrary(); } }, `${x.name} · ${x.documents} docs, ${x.chunks} chunks`))));
  $("#lib-title").textContent = c ? `Documents in ${c}` : "No collection yet: upload files to create one";
  $("#delete-collection").hidden = !c;
  if (!c) { $("#docs tbody").replaceChildren(); return; }
  let lib;
  try { lib = await api(`/api/collections/${encodeURIComponent(c)}/documents`); } catch (e) { toast(e.message); return; }
  $("#docs tbody").replaceChildren(...lib.documents.map((d) => el("tr", { tabindex: d.info ? "0" : null, onclick: () => d.info && summary(d.info), onkeydown: (e) => e.key === "Enter" && d.info && summary(d.info) },
    el("td", {}, d.source), el("td", {}, el("span", { class: `badge ${d.status}` }, d.status), d.detail ? el("div", { class: d.status === "failed" ? "error" : "muted" }, d.detail) : null),
    el("td", { class: "num" }, d.info?.pages ?? ""), el("td", { class: "num" }, d.info?.chunks ?? ""), el("td", {}, d.info ? d.info.ingested_at.replace("T", " ").slice(0, 16) : ""),
    el("td", {}, el("button", { type: "button", class: "danger", "aria-label": `Delete ${d.source}`, onclick: (e) => { e.stopPropagation(); removeDoc(c, d.source); } }, "Delete")))));
  clearTimeout(libTimer);
  if (lib.documents.some((d) => d.status === "pending") && location.hash === "#library") libTimer = setTimeout(showLibrary, 1000);
}
function summary(info) {
  $("#doc-summary").replaceChildren(el("h2", {}, info.source), el("dl", {},
    ...[["pages", info.pages + (info.unread?.length ? ` (not read, images only, no OCR: p. ${info.unread.join(", ")})` : "")], ["chunks", info.chunks], ["parents", info.parents], ["ingested", info.ingested_at], ["SHA-256", info.sha256.slice(0, 16) + "..."],
      ["file", info.path], ["sections", info.sections.slice(0, 12).join(" · ") + (info.sections.length > 12 ? ` ... (${info.sections.length})` : "")]]
      .flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])),
    el("a", { href: docPath(coll(), "/file?") + new URLSearchParams({ source: info.source }), target: "_blank", rel: "noopener" }, "Open the original file"));
}
async function removeDoc(c, source) {
  if (!confirm(`Delete ${source} from ${c}? Its chunks are removed from the index.`)) return;
  try { const d = await api(docPath(c) + "?" + new URLSearchParams({ source }), { method: "DELETE" }); toast(`Deleted ${source}: ${d.chunks} chunks`); }
  catch (e) { toast(e.message); }
  showLibrary();
}
function uploadOne(c, file) {
  const bar = el("progress", { max: 100, value: 0, "aria-label": `Upload of ${file.name}` }), note = el("span", { class: "muted" }, "uploading");
  $("#uploads").append(el("li", {}, el("span", {}, file.name), bar, note));
  return new Promise((resolve) => {
    const x = new XMLHttpRequest(), form = new FormData();
    form.append("files", file, file.name);
    x.open("POST", `/api/collections/${encodeURIComponent(c)}/documents`);
    x.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = (100 * e.loaded) / e.total; };
    x.upload.onload = () => { bar.removeAttribute("value"); note.textContent = "indexing..."; showLibrary(); };
    x.onload = () => {
      let body = {}; try { body = JSON.parse(x.responseText); } catch (_) {}
      if (x.status === 200) {
        const unread = Object.values(body.report.unread || {}).flat();
        bar.value = 100; note.className = "up";
        note.textContent = `indexed: ${body.report.chunks} chunks in ${body.report.seconds.toFixed(1)} s` +
          (unread.length ? `; not read: p. ${unread.join(", ")}, which hold only images (install Tesseract, then upload it again)` : "");
      }
      else { bar.value = 0; note.textContent = body.detail || `failed (${x.status})`; note.className = "error"; }
      resolve();
    };
    x.onerror = () => { note.textContent = "the connection failed"; note.className = "error"; resolve(); };
    x.send(form);
  });
}
async function uploadFiles(files) {
  const c = coll() || prompt("Upload into which collection?", "documents");
  if (!c || !files.length) return;
  await Promise.all([...files].map((f) => uploadOne(c, f)));
  await loadCollections(c); showLibrary();
}

// ---- Traces -----------------------------------------------------------------------------------------------
const VIA = { web: "web", cli: "CLI", mcp: "MCP" };
async function showTraces(ev) {
  ev?.preventDefault();
  const q = new URLSearchParams({ limit: 200 });
  if ($("#trace-kind").value) q.set("kind", $("#trace-kind").value);
  if ($("#trace-text").value) q.set("q", $("#trace-text").value);
  if ($("#trace-via").value) q.set("via", $("#trace-via").value);
  const list = await api("/api/traces?" + q);
  $("#trace-list tbody").replaceChildren(...list.map((t) => el("tr", { tabindex: "0", onclick: () => openTrace(t.id), onkeydown: (e) => e.key === "Enter" && openTrace(t.id) },
    el("td", { class: "nowrap", title: t.at }, t.at.slice(5, 19).replace("T", " ")), el("td", {}, t.kind), el("td", {}, t.title, t.note ? el("span", { class: "muted" }, ` (${t.note})`) : "", el("div", { class: "muted" }, t.collection)),
    el("td", {}, VIA[t.via] || t.via), el("td", { class: "num" }, fmtMs(t.ms)))));
  if (!list.length) $("#trace-list tbody").replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No traces yet: search, ask or ingest something, here, with the CLI or through the MCP tools.")));
}
async function openTrace(id) {
  const t = await api(`/api/traces/${encodeURIComponent(id)}`), out = $("#trace-detail");
  if (t.kind === "search") out.replaceChildren(...retrievalView(t.data));
  else if (t.kind === "answer") {
    const box = el("article", { class: "answer" });
    out.replaceChildren(el("h2", {}, t.title), el("ol", { class: "steps" }, t.data.trace.map((s) => stepItem({ ...s, llm_calls: s.llm_calls.length }))), box);
    showAnswer(t.data, t.collection, box);
  } else out.replaceChildren(el("h2", {}, `Ingest into ${t.collection} (${VIA[t.via] || t.via}): ${t.title}`), el("pre", { class: "json" }, JSON.stringify(t.data, null, 2)));
}

// ---- Evaluate ---------------------------------------------------------------------------------------------
const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...kids) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const k of kids.flat()) if (k != null) e.append(k instanceof Node ? k : String(k));
  return e;
}
const metricLabel = (m) => { const [n, k] = m.split("@"); return ({ mrr: "MRR", ndcg: "nDCG" }[n] || n) + "@" + k; };
let variantNames = null;
async function showEval() {
  if (!variantNames) {
    const schema = await api("/api/openapi.json");
    variantNames = schema.components.schemas.SearchRequest.properties.variant.enum;
    $("#eval-variants").append(...variantNames.map((v) => el("label", {}, el("input", { type: "checkbox", name: "variant", value: v, checked: true }), " ", v)));
  }
  $("#eval-file").focus();
}
function evalChart(results) {
  // Grouped bars: one group per metric, one bar per variant, on a 0-1 scale.
  const metrics = Object.keys(results[0].metrics), W = 720, H = 250, left = 44, bottom = 34, top = 12;
  const gw = (W - left - 8) / metrics.length, bw = Math.min(30, (gw - 18) / results.length);
  const y = (v) => top + (1 - v) * (H - top - bottom);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "Page-level metrics of each variant, 0 to 1" });
  for (const t of [0, 0.25, 0.5, 0.75, 1])
    chart.append(svg("line", { x1: left, x2: W - 8, y1: y(t), y2: y(t), class: "grid" }), svg("text", { x: left - 6, y: y(t) + 4, "text-anchor": "end", class: "tick" }, t.toFixed(2)));
  metrics.forEach((m, i) => {
    const x0 = left + i * gw + (gw - bw * results.length) / 2;
    results.forEach((r, j) => chart.append(svg("rect", { x: x0 + j * bw, y: y(r.metrics[m]), width: Math.max(1, bw - 3), height: y(0) - y(r.metrics[m]), class: `s${j % 6}` },
      svg("title", {}, `${r.variant}, ${metricLabel(m)}: ${r.metrics[m].toFixed(3)}`))));
    chart.append(svg("text", { x: left + i * gw + gw / 2, y: H - bottom + 20, "text-anchor": "middle", class: "tick" }, metricLabel(m)));
  });
  const legend = el("div", { class: "legend" }, results.map((r, j) => el("span", {}, el("span", { class: `swatch s${j % 6}` }), r.variant)));
  return [chart, legend];
}
function evalTable(results) {
  const metrics = Object.keys(results[0].metrics);
  const best = Object.fromEntries(metrics.map((m) => [m, Math.max(...results.map((r) => r.metrics[m]))]));
  return el("table", { class: "table", id: "eval-table" },
    el("thead", {}, el("tr", {}, el("th", {}, "variant"), metrics.map((m) => el("th", { class: "num" }, metricLabel(m))), el("th", { class: "num" }, "p50"), el("th", { class: "num" }, "p95"))),
    el("tbody", {}, results.map((r) => el("tr", {}, el("td", {}, r.variant),
      metrics.map((m) => el("td", { class: "num" + (r.metrics[m] === best[m] ? " best" : "") }, r.metrics[m].toFixed(3))),
      el("td", { class: "num" }, fmtMs(r.total_ms.p50)), el("td", { class: "num" }, fmtMs(r.total_ms.p95))))));
}
const evalView = (results, n) => [el("h2", {}, `${results.length} variant${results.length > 1 ? "s" : ""} on ${n} questions`), evalTable(results), el("h2", {}, "Page-level metrics"), ...evalChart(results)];
function evalStart(d, note) {
  note.textContent = `${d.questions} questions × ${d.variants.length} variants on ${d.collection}, k = ${d.k}`;
  const warn = [];
  if (d.missing.length) warn.push(`The questions name documents ${d.collection} does not hold (they can only score 0): ${d.missing.join(", ")}.`);
  if (d.unscored) warn.push(`${d.unscored} question${d.unscored > 1 ? "s have" : " has"} no gold pages and ${d.unscored > 1 ? "are" : "is"} left out.`);
  $("#eval-out").replaceChildren(...warn.map((w) => el("p", { class: "notice" }, w)));
}
async function runEval(ev) {
  ev.preventDefault();
  const file = $("#eval-file").files[0], btn = $("#eval-form button");
  if (!file) return;
  const form = new FormData();
  form.append("questions", file, file.name);
  if (coll()) form.append("collection", coll());
  document.querySelectorAll("#eval-variants input:checked").forEach((i) => form.append("variant", i.value));
  form.append("k", $("#eval-k").value || "10");
  const bar = el("progress", { max: 1, value: 0, "aria-label": "Evaluation progress" }), note = el("span", { class: "muted" }, "uploading...");
  $("#eval-progress").replaceChildren(bar, note); $("#eval-out").replaceChildren();
  btn.disabled = true;
  const done = [], notices = [];
  let n = 0;
  try {
    const r = await api("/api/eval", { method: "POST", body: form });
    for await (const [name, d] of sseEvents(r)) {
      if (name === "start") { n = d.questions; bar.max = d.total; evalStart(d, note); notices.push(...$("#eval-out").children); }
      else if (name === "progress") { bar.value = d.done; note.textContent = `${d.variant}: ${d.done} of ${d.total} searches`; }
      else if (name === "variant") { done.push(d); $("#eval-out").replaceChildren(...notices, ...evalView(done, n)); }
      else if (name === "result") { bar.value = bar.max; note.textContent = "done"; $("#eval-out").replaceChildren(...notices, ...evalView(d.results, n)); }
      else if (name === "error") throw new Error(d.detail);
    }
  } catch (e) { note.textContent = e.message; note.className = "error"; }
  finally { btn.disabled = false; }
}

// ---- Screens ----------------------------------------------------------------------------------------------
const SCREENS = { ask: () => $("#question").focus(), search: () => $("#query").focus(), library: showLibrary, traces: showTraces, eval: showEval };
function route() {
  const name = (location.hash || "#ask").slice(1);
  const screen = SCREENS[name] ? name : "ask";
  document.querySelectorAll(".screen").forEach((s) => (s.hidden = s.id !== "screen-" + screen));
  document.querySelectorAll("nav a").forEach((a) => { if (a.dataset.screen === screen) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current"); });
  Promise.resolve(SCREENS[screen]()).catch((e) => toast(e.message));
}
async function start() {
  $("#ask-form").addEventListener("submit", ask);
  $("#question").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) $("#ask-form").requestSubmit(); });
  $("#search-form").addEventListener("submit", search);
  $("#trace-filter").addEventListener("submit", showTraces);
  $("#eval-form").addEventListener("submit", runEval);
  $("#viewer-close").addEventListener("click", () => $("#viewer").close());
  $("#collection").addEventListener("change", () => { localStorage.setItem("collection", coll()); if (location.hash === "#library") showLibrary(); });
  $("#new-collection").addEventListener("submit", async (e) => {
    e.preventDefault();
    try { const c = await api("/api/collections", { method: "POST", body: { name: e.target.name.value } }); e.target.reset(); await loadCollections(c.name); showLibrary(); }
    catch (err) { toast(err.message); }
  });
  $("#delete-collection").addEventListener("click", async () => {
    const c = coll();
    if (!c || !confirm(`Delete the collection ${c} with all its documents? This cannot be undone.`)) return;
    try { const d = await api(`/api/collections/${encodeURIComponent(c)}`, { method: "DELETE" }); toast(`Deleted ${c}: ${d.documents.length} documents`); localStorage.removeItem("collection"); }
    catch (err) { toast(err.message); }
    showLibrary();
  });
  const drop = $("#drop"), input = $("#files");
  drop.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); input.click(); } });
  input.addEventListener("change", () => { uploadFiles(input.files); input.value = ""; });
  ["dragenter", "dragover"].forEach((t) => drop.addEventListener(t, (e) => { e.preventDefault(); drop.classList.add("over"); }));
  ["dragleave", "drop"].forEach((t) => drop.addEventListener(t, (e) => { e.preventDefault(); drop.classList.remove("over"); }));
  drop.addEventListener("drop", (e) => uploadFiles(e.dataTransfer.files));
  window.addEventListener("hashchange", route);
  try { await api("/api/health"); await loadCollections(); } catch (e) { toast(e.message); }
  route();
}
start();
