// The row explorer of report.html: unpacks the rows embedded in the page and shows them filtered and sorted.
// No library and no network: the data is gzip-compressed JSON in base64 (clsd_analysis.explorer_data says
// its layout), unpacked with the browser's own DecompressionStream. Texts are inserted as text, never as HTML.
"use strict";

window.clsdExplorerReady = (async () => {
  const PAGE = 50;
  const byId = (id) => document.getElementById(id);

  async function unpack(base64) {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function option(value, label) {
    const node = element("option", "", label);
    node.value = value;
    return node;
  }

  function fill(select, options, value) {
    select.replaceChildren(...options.map(([v, label]) => option(v, label)));
    select.value = value;
  }

  const doc = await unpack(byId("clsd-data").textContent.trim());
  const state = { model: doc.focus, setting: "", task: "", rows: "wrong", type: "", sort: "order", limit: PAGE };
  let matching = [];

  const text = (index) => doc.texts[index];
  const cosine = (value) => (value / 10000).toFixed(4);
  // a reranker's numbers are its own relevance scores (logits, probabilities), never cosines: said on every card
  const reranker = () => doc.models[state.model].unit === "score";
  const typeName = (row, slot) => (row[5][slot] >= 0 ? doc.types[row[5][slot]] : "untyped");

  function typeLabel(row, slot) {
    const pos = row[6][slot] ? ` (${row[6][slot]})` : "";
    const rule = row[7][slot] ? `, rule ${row[7][slot]}` : "";
    return typeName(row, slot) + pos + rule;
  }

  // a text in its language and direction: right to left for Arabic or Hebrew, else as its letters say
  function written(node, task, side) {
    if (task.lang && task.lang[side]) node.lang = task.lang[side];
    node.dir = task.dir && task.dir[side] === "rtl" ? "rtl" : "auto";
    return node;
  }

  function marked(value, offsets) {
    const out = element("span", "text");
    let at = 0;
    for (let k = 0; k < offsets.length; k += 2) {
      out.append(value.slice(at, offsets[k]), element("mark", "", value.slice(offsets[k], offsets[k + 1])));
      at = offsets[k + 1];
    }
    out.append(value.slice(at));
    return out;
  }

  function select() {
    const found = [];
    for (const task of doc.tasks) {
      if ((state.setting && task.setting !== state.setting) || (state.task && task.name !== state.task)) continue;
      const cos = task.cos[state.model];
      if (!cos) continue;
      task.rows.forEach((row, i) => {
        if (!cos[i]) return;
        const wrong = task.beat[state.model][i] !== 0;
        const top = task.top[state.model][i];
        if ((state.rows === "wrong" && !wrong) || (state.type && typeName(row, top) !== state.type)) return;
        found.push({ task, row, i, wrong, top, margin: cos[i][0] - cos[i][top + 1], order: found.length });
      });
    }
    if (state.sort !== "order") {
      const sign = state.sort === "margin" ? 1 : -1;
      found.sort((a, b) => sign * (a.margin - b.margin) || a.order - b.order);
    }
    return found;
  }

  function card(item) {
    const { task, row, i, wrong, top, margin } = item;
    const cos = task.cos[state.model][i];
    const beat = task.beat[state.model][i];
    const article = element("article", `row ${wrong ? "wrong" : "right"}`);
    article.dataset.task = task.name;
    article.dataset.id = row[0];
    article.dataset.unit = doc.models[state.model].unit;
    const marginLabel = reranker() ? "score margin" : "margin";
    const unitNote = reranker() ? " (the reranker's own score units, not a cosine)" : "";
    const header = element("header");
    header.append(
      element("span", "", `${task.short} (${task.setting})`),
      element("span", "", row[0]),
      element("span", "margin", `${marginLabel} ${margin > 0 ? "+" : ""}${cosine(margin)}${unitNote}`),
      element("span", "", `strongest distractor: ${typeName(row, top)}`),
    );
    const source = element("p", "source");
    source.append(element("span", "who", "S"), written(element("span", "text", text(row[1])), task, 0));
    const target = element("p", "target");
    target.append(element("span", "who", "T"), written(element("span", "text", text(row[2])), task, 1), element("span", "cos", cosine(cos[0])));
    const list = element("ol", "distractors");
    row[3].forEach((index, slot) => {
      const item = element("li", (beat >> slot) & 1 ? "beats" : "");
      item.dataset.type = typeName(row, slot);
      const value = cos[slot + 1] === null ? "—" : cosine(cos[slot + 1]);
      item.append(written(marked(text(index), row[4][slot]), task, 1), element("span", "cos", value), element("span", "type", typeLabel(row, slot)));
      list.append(item);
    });
    article.append(header, source, target, list);
    return article;
  }

  function render() {
    const shown = matching.slice(0, state.limit);
    byId("rows").replaceChildren(...shown.map(card));
    const what = state.rows === "wrong" ? "rows the model got wrong" : "rows";
    const chosen = doc.tasks.find((t) => t.name === state.task);
    const p1 = chosen && chosen.p1 ? chosen.p1[state.model] : null;
    const score = p1 ? `${doc.models[state.model].label} on ${chosen.short} (${chosen.setting}): P@1 ${p1[0].toFixed(1)}% (95% interval ${p1[1].toFixed(1)}–${p1[2].toFixed(1)}). ` : "";
    byId("count").textContent = `${score}${matching.length} ${what}${matching.length > shown.length ? `, first ${shown.length} shown` : ""}.`;
    byId("more").hidden = matching.length <= shown.length;
  }

  function update() {
    const settings = [...new Set(doc.tasks.map((t) => t.setting))];
    fill(byId("f-setting"), [["", "all"], ...settings.map((s) => [s, s])], state.setting);
    const tasks = doc.tasks.filter((t) => !state.setting || t.setting === state.setting);
    if (!tasks.some((t) => t.name === state.task)) state.task = "";
    fill(byId("f-task"), [["", "all tasks"], ...tasks.map((t) => [t.name, `${t.short} (${t.setting})`])], state.task);
    state.limit = PAGE;
    matching = select();
    render();
  }

  fill(byId("f-model"), doc.models.map((m, k) => [String(k), m.short === m.label ? m.label : `${m.short} — ${m.label}`]), String(state.model));
  fill(byId("f-type"), [["", "any"], ...doc.types.map((t) => [t, t])], "");
  const controls = { "f-model": "model", "f-setting": "setting", "f-task": "task", "f-rows": "rows", "f-type": "type", "f-sort": "sort" };
  for (const [id, key] of Object.entries(controls)) {
    byId(id).addEventListener("change", (event) => {
      state[key] = key === "model" ? Number(event.target.value) : event.target.value;
      update();
    });
  }
  byId("more").addEventListener("click", () => {
    state.limit += PAGE;
    render();
  });
  update();
  const api = { state, matching: () => matching.map((m) => [m.task.name, m.row[0]]) };
  window.clsdExplorer = api;
  return api;
})();
