export declare const CHROMIUM_ARGS: readonly string[];
export declare const FAKE_MEDIA_ARGS: readonly string[];
