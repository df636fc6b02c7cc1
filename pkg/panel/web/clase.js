// The class page: GET /clase/estado every 2 s, drawn with textContent only, so a student's name is
// always shown as text, whatever it contains.
"use strict";

function hora(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return d.toLocaleTimeString("es", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function celda(texto, clase, nota) {
  const td = document.createElement("td");
  td.textContent = texto;
  if (clase) td.className = clase;
  if (nota) {
    const s = document.createElement("small");
    s.textContent = nota;
    td.appendChild(s);
  }
  return td;
}

function dibujar(e) {
  const columnas = document.getElementById("columnas");
  columnas.replaceChildren();
  const th = (t) => { const x = document.createElement("th"); x.textContent = t; columnas.appendChild(x); };
  th("alumno");
  for (const id of e.comprobaciones) th(id);
  th("última");
  const cuerpo = document.getElementById("alumnos");
  cuerpo.replaceChildren();
  for (const a of e.alumnos) {
    const tr = document.createElement("tr");
    tr.appendChild(celda(a.nombre));
    for (const id of e.comprobaciones) {
      const c = a.comprobaciones[id];
      if (!c) { tr.appendChild(celda("—")); continue; }
      const nota = c.ultima_vez_bien ? "bien a las " + hora(c.ultima_vez_bien) : "nunca pasó";
      tr.appendChild(celda(c.paso ? "✔" : "✘", c.paso ? "bien" : "mal", nota));
    }
    tr.appendChild(celda(hora(a.ultima)));
    cuerpo.appendChild(tr);
  }
  document.getElementById("estado").textContent =
    e.alumnos.length + (e.alumnos.length === 1 ? " alumno" : " alumnos") + "; se actualiza sola";
}

async function actualizar() {
  try {
    const r = await fetch("/clase/estado", { cache: "no-store" });
    if (r.ok) dibujar(await r.json());
  } catch {
    document.getElementById("estado").textContent = "sin conexión con el panel; reintento";
  }
  setTimeout(actualizar, 2000);
}

actualizar();
