// hls.js is large: it is imported only when a player needs it (an HLS stream
// in a browser without native HLS), into its own chunk that the service worker
// does not precache (vite.config.ts).
//
// Its ES build has no worker of its own; workerPath gives it hls.worker.js
// from our origin, which the Content-Security-Policy allows (worker-src
// 'self'), so transmuxing runs off the main thread.
import workerPath from 'hls.js/dist/hls.worker.js?url'

export async function loadHls() {
  const { default: Hls } = await import('hls.js')
  return {
    Hls,
    config: {
      workerPath,
      // The automatic choice never fetches more pixels than the player shows
      // (a phone's small frame plays 360p, not 1080p).
      capLevelToPlayerSize: true,
    },
  }
}
