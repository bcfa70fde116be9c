// Scorekeeper's "Keep screen on" (the wake_toggle macro): loaded after the page
// (data-after-load, app.js), so the first visit never waits for it.
"use strict";

// ---- at the table: keep the screen on ----
// A [data-wake-lock] toggle (scoreboard, hand entry) keeps the phone awake while the page
// is visible, so it does not sleep mid-match; the choice is remembered on this phone.
// The browser's Screen Wake Lock where it has one (a secure context). Elsewhere (plain
// HTTP on the home Wi-Fi) a silent, looping, inline video plays, which phones keep
// the screen on for: the video is a second of a blank canvas recorded on this phone
// (MediaRecorder), and the person's tap starts it. Where neither can work the toggle is
// shown disabled, with the line saying why and what to do (data-wake-note="none").
const WakeKeepers = {
  lock() {
    let lock = null;
    return {
      async start() {
        if (lock || document.visibilityState !== "visible") return;
        try {
          lock = await navigator.wakeLock.request("screen");
          lock.addEventListener("release", () => { lock = null; });
        } catch (_) { lock = null; /* refused (battery saver): the toggle still shows the wish */ }
      },
      stop() { if (lock) lock.release(); },
    };
  },
  // A second of a 2 × 2 canvas, recorded once; the video's source (a blob: URL).
  recording: null,
  record() {
    if (!this.recording) {
      this.recording = new Promise((resolve, reject) => {
        const canvas = Object.assign(document.createElement("canvas"), { width: 2, height: 2 });
        const paint = canvas.getContext("2d");
        const stream = canvas.captureStream(10);
        const recorder = new MediaRecorder(stream);
        const parts = [];
        let frame = 0;
        const draw = window.setInterval(() => {
          paint.fillStyle = frame % 2 ? "#000" : "#010101";
          paint.fillRect(0, 0, 2, 2);
          frame += 1;
        }, 100);
        recorder.addEventListener("dataavailable", (event) => { if (event.data.size) parts.push(event.data); });
        recorder.addEventListener("stop", () => {
          window.clearInterval(draw);
          stream.getTracks().forEach((track) => track.stop());
          if (parts.length) resolve(URL.createObjectURL(new Blob(parts, { type: recorder.mimeType })));
          else reject(new Error("nothing recorded"));
        });
        recorder.start();
        window.setTimeout(() => recorder.stop(), 1000);
      });
    }
    return this.recording;
  },
  videoPossible: () => Boolean(window.MediaRecorder && HTMLCanvasElement.prototype.captureStream && window.URL.createObjectURL),
  video() {
    const video = Object.assign(document.createElement("video"), { muted: true, loop: true, playsInline: true });
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.className = "wake-video";
    video.dataset.wakeVideo = "";
    // A recording with no length in its header may not loop by itself: start it again.
    video.addEventListener("ended", () => { video.currentTime = 0; video.play().catch(() => {}); });
    let wanted = false;
    const play = () => { if (wanted && video.src) video.play().catch(() => {}); };
    return {
      start() {
        wanted = true;
        if (!video.isConnected) document.body.append(video);
        play(); // within the tap where the source is ready
        if (!video.src) WakeKeepers.record().then((src) => { video.src = src; play(); }).catch(() => {});
      },
      stop() { wanted = false; video.pause(); },
    };
  },
};
document.querySelectorAll("[data-wake]").forEach((box) => {
  const toggle = box.querySelector("[data-wake-lock]");
  const note = (kind, on) => { const line = box.querySelector(`[data-wake-note="${kind}"]`); if (line) line.hidden = !on; };
  toggle.hidden = false;
  let keeper = null;
  if ("wakeLock" in navigator) keeper = WakeKeepers.lock();
  else if (WakeKeepers.videoPossible()) keeper = WakeKeepers.video();
  if (!keeper) {
    toggle.disabled = true;
    toggle.setAttribute("aria-describedby", "wake-none");
    box.querySelector('[data-wake-note="none"]').id = "wake-none";
    note("none", true);
    return;
  }
  const byVideo = !("wakeLock" in navigator);
  const KEY = "scorekeeper.wake-lock";
  const wanted = () => window.localStorage.getItem(KEY) === "on";
  const show = () => {
    toggle.setAttribute("aria-pressed", String(wanted()));
    note("video", byVideo && wanted());
  };
  show();
  toggle.addEventListener("click", () => {
    window.localStorage.setItem(KEY, wanted() ? "off" : "on");
    show();
    if (wanted()) keeper.start();
    else keeper.stop();
  });
  document.addEventListener("visibilitychange", () => { if (wanted() && document.visibilityState === "visible") keeper.start(); });
  if (wanted()) keeper.start();
});
