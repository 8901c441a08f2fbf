// The part of @thaunknown/simple-peer (10.1.2, no types of its own) that the video call uses.
declare module '@thaunknown/simple-peer' {
  export interface SimplePeerOptions {
    initiator?: boolean;
    stream?: MediaStream;
    trickle?: boolean;
    config?: RTCConfiguration;
    offerOptions?: RTCOfferOptions;
  }
  export default class SimplePeer {
    constructor(options?: SimplePeerOptions);
    initiator: boolean;
    destroyed: boolean;
    _pc: RTCPeerConnection;
    signal(data: unknown): void;
    send(data: string): void;
    negotiate(): void;
    replaceTrack(oldTrack: MediaStreamTrack, newTrack: MediaStreamTrack, stream: MediaStream): void;
    destroy(error?: Error): void;
    on(event: 'signal', listener: (data: unknown) => void): this;
    on(event: 'stream', listener: (stream: MediaStream) => void): this;
    on(event: 'connect' | 'close', listener: () => void): this;
    on(event: 'data', listener: (data: Uint8Array | string) => void): this;
    on(event: 'error', listener: (error: Error & { code?: string }) => void): this;
    on(
      event: 'iceStateChange',
      listener: (ice: RTCIceConnectionState, gathering: RTCIceGatheringState) => void,
    ): this;
    protected _onIceStateChange(): void;
    protected _onConnectionStateChange(): void;
  }
}
