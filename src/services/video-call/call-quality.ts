// Connection quality from RTCPeerConnection.getStats(): round-trip time of the active candidate pair
// and the share of inbound packets lost since the previous sample. The badge shows when it is not good.
import type { CallQuality } from '../../machines/video-call.machine';

export interface StatsSample {
  packetsReceived: number;
  packetsLost: number;
}

/** RTT in seconds and loss as a fraction, past which a call is poor / bad (what users notice). */
const POOR = { rtt: 0.3, loss: 0.03 };
const BAD = { rtt: 0.8, loss: 0.1 };

interface StatLike {
  type: string;
  state?: string;
  nominated?: boolean;
  currentRoundTripTime?: number;
  packetsReceived?: number;
  packetsLost?: number;
}

export function qualityFromStats(
  report: { forEach(callback: (stat: StatLike) => void): void },
  previous: StatsSample | null,
): { quality: CallQuality; sample: StatsSample } {
  let rtt = 0;
  const sample: StatsSample = { packetsReceived: 0, packetsLost: 0 };
  report.forEach((stat) => {
    if (stat.type === 'candidate-pair' && stat.state === 'succeeded' && stat.nominated)
      rtt = Math.max(rtt, stat.currentRoundTripTime ?? 0);
    if (stat.type === 'inbound-rtp') {
      sample.packetsReceived += stat.packetsReceived ?? 0;
      sample.packetsLost += Math.max(0, stat.packetsLost ?? 0);
    }
  });
  const received = sample.packetsReceived - (previous?.packetsReceived ?? 0);
  const lost = sample.packetsLost - (previous?.packetsLost ?? 0);
  const loss = received + lost > 0 ? Math.max(0, lost) / (received + lost) : 0;
  const quality: CallQuality =
    rtt >= BAD.rtt || loss >= BAD.loss ? 'bad' : rtt >= POOR.rtt || loss >= POOR.loss ? 'poor' : 'good';
  return { quality, sample };
}
