// Knowing it's your turn while looking elsewhere: when it becomes one of this browser's seats' turn
// and the tab is hidden, the tab's title and icon change until the tab is looked at again; and, if
// the person turned them on in the settings menu, a short sound and a browser notification (the
// Notification API: permission is asked for only when they turn notifications on).
import { h } from "./common.js";
import { t } from "./i18n.js";

const SETTINGS_KEY = "powergrid.alerts";
const MARKED_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d2a3a"/>'
  + '<path d="M18 3 7 18h7l-2 11 11-15h-7z" fill="#ffc83d"/><circle cx="25" cy="7" r="6.5" fill="#e0312b" stroke="#fff" stroke-width="1.5"/></svg>');

export function readSettings() {
  try {
    const kept = JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {};
    return { sound: kept.sound === true, notify: kept.notify === true };
  } catch (err) {
    return { sound: false, notify: false };
  }
}

function saveSettings(settings) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch (err) {
    // kept for this page only
  }
}

export class TurnAlerts {
  constructor() {
    this.settings = readSettings();
    this.wasMine = null; // unknown until the first view
    this.alerted = false;
    this.title = document.title;
    this.icon = document.querySelector("link[rel~='icon']");
    this.plainIcon = this.icon ? this.icon.getAttribute("href") : null;
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.clear(); });
    window.addEventListener("focus", () => this.clear());
  }

  /** The page's usual title (it is restored when the person looks again). */
  setTitle(title) {
    this.title = title;
    if (!this.alerted) document.title = title;
  }

  /** A new view: whether one of this browser's seats is now to act. */
  update(mine) {
    const became = mine && this.wasMine === false;
    this.wasMine = mine;
    if (!mine) {
      this.clear();
      return;
    }
    if (became && document.hidden) this.alert();
  }

  alert() {
    this.alerted = true;
    document.title = t("● Your turn — Power Grid");
    document.documentElement.dataset.yourTurn = "";
    if (this.icon) this.icon.setAttribute("href", MARKED_ICON);
    if (this.settings.sound) beep();
    if (this.settings.notify && "Notification" in window && Notification.permission === "granted") {
      try {
        const note = new Notification(t("Your turn — Power Grid"), { body: t("The table is waiting for you."), tag: "powergrid-turn", icon: "/static/favicon.svg" });
        note.onclick = () => { window.focus(); note.close(); };
      } catch (err) {
        // some browsers allow notifications only from a service worker: the title still says it
      }
    }
  }

  clear() {
    if (!this.alerted) return;
    this.alerted = false;
    document.title = this.title;
    delete document.documentElement.dataset.yourTurn;
    if (this.icon && this.plainIcon) this.icon.setAttribute("href", this.plainIcon);
  }

  async setNotify(on) {
    if (on && "Notification" in window && Notification.permission !== "granted") {
      try {
        on = (await Notification.requestPermission()) === "granted";
      } catch (err) {
        on = false;
      }
    }
    if (on && !("Notification" in window)) on = false;
    this.settings.notify = on;
    saveSettings(this.settings);
    return on;
  }

  setSound(on) {
    this.settings.sound = on;
    saveSettings(this.settings);
    if (on) beep();
  }
}

/** Two short tones (Web Audio: no sound file to load). */
function beep() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    const audio = new Context();
    [0, 0.18].forEach((start, i) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = i ? 880 : 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime + start);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + start);
      tone.stop(audio.currentTime + start + 0.17);
    });
    setTimeout(() => audio.close(), 800);
  } catch (err) {
    // no sound: the title still says it
  }
}

/** The settings menu's content: sound and notifications (the name row is added by the page). */
export function alertSettings(alerts) {
  const sound = h("input", { type: "checkbox", id: "alert-sound", checked: alerts.settings.sound, onchange: (event) => alerts.setSound(event.target.checked) });
  const notify = h("input", {
    type: "checkbox", id: "alert-notify", checked: alerts.settings.notify,
    onchange: async (event) => {
      const box = event.target;
      box.disabled = true;
      box.checked = await alerts.setNotify(box.checked);
      box.disabled = false;
      note.hidden = !("Notification" in window) || Notification.permission !== "denied";
    },
  });
  const note = h("p", { class: "hint", hidden: !("Notification" in window) || Notification.permission !== "denied" },
    t("This browser blocks notifications from this site: allow them in its site settings."));
  return [
    h("label", { class: "setting" }, sound, t("Play a sound when it is my turn")),
    h("label", { class: "setting" }, notify, t("Notify me when it is my turn (while I look elsewhere)")),
    note,
  ];
}
