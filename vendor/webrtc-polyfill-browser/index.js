// Stands in for the npm package `webrtc-polyfill` (a dependency of @thaunknown/simple-peer), through
// `overrides` in the root package.json. The real package's browser build exports the browser's own
// classes, exactly as below; its Node build needs `node-datachannel`, a native addon whose install
// downloads or compiles libdatachannel. Video calls run simple-peer only in browsers, so the native
// addon would be built for nothing (and cannot be, on a machine with no network beyond the npm registry).
const scope = globalThis;

export const RTCPeerConnection = scope.RTCPeerConnection;
export const RTCSessionDescription = scope.RTCSessionDescription;
export const RTCIceCandidate = scope.RTCIceCandidate;
export const RTCIceTransport = scope.RTCIceTransport;
export const RTCDataChannel = scope.RTCDataChannel;
export const RTCSctpTransport = scope.RTCSctpTransport;
export const RTCDtlsTransport = scope.RTCDtlsTransport;
export const RTCCertificate = scope.RTCCertificate;
export const MediaStream = scope.MediaStream;
export const MediaStreamTrack = scope.MediaStreamTrack;
export const RTCPeerConnectionIceEvent = scope.RTCPeerConnectionIceEvent;
export const RTCDataChannelEvent = scope.RTCDataChannelEvent;
export const RTCTrackEvent = scope.RTCTrackEvent;
export const RTCError = scope.RTCError;
export const MediaStreamTrackEvent = scope.MediaStreamTrackEvent;
export const RTCErrorEvent = scope.RTCErrorEvent;
export const RTCRtpTransceiver = scope.RTCRtpTransceiver;
export const RTCRtpReceiver = scope.RTCRtpReceiver;
export const RTCRtpSender = scope.RTCRtpSender;
