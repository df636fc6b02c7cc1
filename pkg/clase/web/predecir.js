// A student's page for the predictions asked in class, on a phone or a laptop. The credential is
// pasted once and kept in this tab's sessionStorage (gone when the tab closes); it goes only in
// the Authorization header, never in an address. GET /clase/prediccion every 2 s gives the open
// question; the form is built once per question (a read never wipes what is being typed), and
// PUT /clase/prediccion/respuesta sends an answer to every question: the last one sent counts
// until the instructor reveals. Everything is drawn with textContent.
"use strict";

const CADA = 2000;
const $ = (id) => document.getElementById(id);
const CLAVE = "cursohttp-credencial";
let ronda = ""; // the question the form was built for
let preguntas = []; // and its questions
let fase = "";
let temporizador = 0;

function el(etiqueta, clase, texto) {
  const e = document.createElement(etiqueta);
  if (clase) e.className = clase;
  if (texto !== undefined) e.textContent = texto;
  return e;
}

function aviso(texto) {
  $("aviso").textContent = texto;
  $("aviso").hidden = !texto;
}

function credencial() {
  return sessionStorage.getItem(CLAVE) || "";
}

// salir forgets the credential and asks for one again, saying why.
function salir(motivo) {
  sessionStorage.removeItem(CLAVE);
  clearTimeout(temporizador);
  ronda = "";
  $("pregunta").hidden = true;
  $("salir").hidden = true;
  $("quien").textContent = "";
  $("estado").textContent = "";
  $("entrar").hidden = false;
  aviso(motivo || "");
}

async function pedir(metodo, cuerpo) {
  const opciones = { method: metodo, cache: "no-store", headers: { Authorization: "Bearer " + credencial(), Accept: "application/json" } };
  if (cuerpo !== undefined) {
    opciones.headers["Content-Type"] = "application/json";
    opciones.body = JSON.stringify(cuerpo);
  }
  return fetch(metodo === "GET" ? "/clase/prediccion" : "/clase/prediccion/respuesta", opciones);
}

// campo is one question's input: radio buttons for a choice, a line of text otherwise.
function campo(q, pista, valor) {
  if (q.tipo === "opcion" || q.tipo === "sino") {
    const opciones = q.tipo === "sino" ? ["sí", "no"] : q.opciones;
    const fs = el("fieldset");
    fs.append(el("legend", "pista", pista));
    for (const o of opciones) {
      const label = el("label");
      const input = el("input");
      input.type = "radio";
      input.name = "q-" + q.id; // a group; the form is never submitted by the browser
      input.value = o;
      input.checked = o === valor;
      label.append(input, " " + o);
      fs.append(label);
    }
    return fs;
  }
  const input = el("input");
  input.type = "text";
  input.placeholder = pista;
  input.autocomplete = "off";
  if (["codigo", "numero", "salida"].includes(q.tipo)) input.inputMode = "numeric";
  input.value = valor || "";
  input.setAttribute("aria-label", q.texto);
  return input;
}

function valorDe(li, q) {
  if (q.tipo === "opcion" || q.tipo === "sino") {
    const marcado = li.querySelector("input:checked");
    return marcado ? marcado.value : "";
  }
  return li.querySelector("input").value;
}

function construir(v) {
  ronda = v.ronda;
  fase = "";
  preguntas = v.ejercicio.preguntas;
  $("titulo").textContent = v.ejercicio.id + " — " + v.ejercicio.titulo;
  $("cita").textContent = v.cita;
  $("enunciado").textContent = v.ejercicio.enunciado;
  $("guardada").textContent = v.mias ? "ya respondiste; lo que mandes ahora reemplaza lo anterior" : "";
  const mias = v.mias || {};
  $("preguntas").replaceChildren(...v.ejercicio.preguntas.map((q) => {
    const li = el("li");
    li.dataset.pregunta = q.id;
    li.append(el("p", "texto", q.texto), campo(q, v.pistas[q.id], mias[q.id]), el("p", "error"));
    return li;
  }));
}

// revelada puts each answer that counted beside the run's.
function revelada(v) {
  for (const q of v.ejercicio.preguntas) {
    const li = $("preguntas").querySelector('li[data-pregunta="' + CSS.escape(q.id) + '"]');
    if (!li || li.querySelector(".resultado")) continue;
    const real = v.reales[q.id];
    const mia = (v.mias || {})[q.id];
    const bien = mia !== undefined && acierta(q, mia, real.valor);
    const p = el("p", "resultado");
    p.append((bien ? "✔ " : "✘ ") + "dijiste: " + (mia === undefined ? "nada" : mia) + " · pasó: ", el("span", "real", real.valor));
    li.append(p, el("p", "porque", "por qué: " + real.porque),
      el("p", "pista", "en la clase acertaron " + real.acertaron + " de " + v.respondieron));
  }
}

// acierta is predecir.Pregunta.Acierta: the same text, or a number within the question's margin.
function acierta(q, dada, real) {
  if (dada === real) return true;
  if (q.tipo === "numero" && q.margen > 0 && /^\d+$/.test(dada) && /^\d+$/.test(real)) {
    return Math.abs(Number(dada) - Number(real)) <= q.margen;
  }
  return false;
}

function dibujar(v) {
  $("quien").textContent = "respondes como " + v.alumno;
  $("salir").hidden = false;
  if (v.fase === "ninguna" || !v.ejercicio) {
    ronda = "";
    fase = v.fase;
    $("pregunta").hidden = true;
    $("estado").textContent = "todavía no hay ninguna pregunta abierta: espera al profesor";
    return;
  }
  if (v.ronda !== ronda) construir(v);
  $("pregunta").hidden = false;
  const abierta = v.fase === "abierta";
  for (const e of $("responder").elements) e.disabled = !abierta;
  $("estado").textContent = {
    abierta: "abierta: responde antes de que el profesor la revele",
    corriendo: "respuestas cerradas: el laboratorio corre el ejercicio…",
    revelada: "revelada",
  }[v.fase] || v.fase;
  if (v.fase === "revelada" && fase !== "revelada") revelada(v);
  fase = v.fase;
}

async function leer() {
  clearTimeout(temporizador);
  if (!credencial()) return;
  try {
    const r = await pedir("GET");
    if (r.status === 401) {
      salir((await r.text()).trim());
      return;
    }
    if (!r.ok) throw new Error((await r.text()).trim() || String(r.status));
    aviso("");
    dibujar(await r.json());
  } catch (e) {
    aviso("el laboratorio de la clase no responde (" + e.message + "); sigo intentándolo");
  }
  temporizador = setTimeout(leer, CADA);
}

$("entrar").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const c = $("credencial").value.trim();
  if (!c) return;
  sessionStorage.setItem(CLAVE, c);
  $("credencial").value = "";
  $("entrar").hidden = true;
  aviso("");
  leer();
});

$("responder").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const items = [...$("preguntas").children];
  const respuestas = {};
  preguntas.forEach((q, i) => {
    items[i].querySelector(".error").textContent = "";
    respuestas[q.id] = valorDe(items[i], q);
  });
  $("enviar").disabled = true;
  try {
    const r = await pedir("PUT", { ronda, respuestas });
    if (r.status === 204) {
      $("guardada").textContent = "respuesta guardada a las " + new Date().toLocaleTimeString("es") +
        ": cuenta la última que mandes hasta que el profesor la revele";
    } else if (r.status === 422) {
      const { errores } = await r.json();
      for (const li of items) li.querySelector(".error").textContent = errores[li.dataset.pregunta] || "";
      $("guardada").textContent = "no se guardó: corrige lo que está en rojo";
    } else if (r.status === 401) {
      salir((await r.text()).trim());
    } else {
      $("guardada").textContent = "no se guardó: " + (await r.text()).trim();
    }
  } catch (e) {
    $("guardada").textContent = "no se guardó: el laboratorio de la clase no responde (" + e.message + ")";
  } finally {
    $("enviar").disabled = fase !== "abierta";
  }
});

$("salir").addEventListener("click", () => salir(""));

if (credencial()) {
  leer();
} else {
  $("entrar").hidden = false;
  $("estado").textContent = "";
}
