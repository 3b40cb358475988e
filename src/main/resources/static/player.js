// Playback: a clock in seconds that the slider scrubs and play advances. The clock is sent to posekit as the
// playback time with the chosen loop mode, so posekit maps it into the clip (repeat, ping-pong, clamp) and the
// slider then shows the clip-local time it answered. Frames are fetched latest-wins: while one frame is being
// fetched, only the newest requested time waits, so a slow server lowers the frame rate instead of queueing.

export class Player {
  /**
   * @param fetchFrame async ({clip, time, loop}) => localTime | null: fetches and shows one frame
   * @param onChange (player) => void: called when the playing state or the shown time changes
   * @param onError (error) => void: a frame failed (playback pauses)
   */
  constructor(fetchFrame, onChange, onError) {
    this.fetchFrame = fetchFrame;
    this.onChange = onChange;
    this.onError = onError;
    this.clip = '';
    this.duration = 0;
    this.loop = 'repeat';
    this.time = 0;
    this.localTime = null;
    this.playing = false;
    this.pending = null;
    this.busy = false;
    this.lastTick = null;
  }

  /** A new clip ('' = rest pose) of the given duration, shown from time 0. */
  load(clip, duration) {
    this.pause();
    this.clip = clip;
    this.duration = duration;
    this.seek(0);
  }

  /** Shows the given playback time (seconds). */
  seek(time) {
    this.time = time;
    this.request();
  }

  setLoop(loop) {
    this.loop = loop;
    this.request();
  }

  play() {
    if (this.playing || !this.clip || this.duration <= 0) {
      return;
    }
    if (this.loop === 'clamp' && this.time >= this.duration) {
      this.time = 0; // replaying a clamped clip starts it over
    }
    this.playing = true;
    this.lastTick = null;
    requestAnimationFrame((now) => this.tick(now));
    this.onChange(this);
  }

  pause() {
    if (this.playing) {
      this.playing = false;
      this.onChange(this);
    }
  }

  tick(now) {
    if (!this.playing) {
      return;
    }
    // the first frame only anchors the clock: a frame's timestamp is when the frame began, which can be before
    // play() ran, so performance.now() there would make time step backwards
    this.time += this.lastTick === null ? 0 : (now - this.lastTick) / 1000;
    this.lastTick = now;
    if (this.loop === 'clamp' && this.time >= this.duration) {
      this.time = this.duration;
      this.request();
      this.pause();
      return;
    }
    this.request();
    requestAnimationFrame((t) => this.tick(t));
  }

  request() {
    this.pending = { clip: this.clip, time: this.time, loop: this.loop };
    if (!this.busy) {
      this.drain();
    }
  }

  async drain() {
    this.busy = true;
    try {
      while (this.pending) {
        const frame = this.pending;
        this.pending = null;
        this.localTime = await this.fetchFrame(frame);
        this.onChange(this);
      }
    } catch (e) {
      this.pending = null;
      this.pause();
      this.onError(e);
    } finally {
      this.busy = false;
    }
  }
}
