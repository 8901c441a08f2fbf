// The send job's throttle: a token bucket filled at the campaign's rate, holding at most a tenth of a
// second of mail, so a campaign never bursts past its rate by more than that (and a mail server's
// per-second limit holds over every window, not only on average).
export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  private readonly capacity: number;

  constructor(
    readonly rate: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, rate / 10);
    this.tokens = this.capacity;
    this.last = now();
  }

  private refill() {
    const at = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((at - this.last) / 1000) * this.rate);
    this.last = at;
  }

  /** Resolves once a token is taken: at once while the bucket holds one, else when the next is due. */
  async take(): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      const waitMs = ((1 - this.tokens) / this.rate) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, waitMs)));
    }
  }
}
