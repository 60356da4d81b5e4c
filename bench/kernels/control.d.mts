export declare const CTL_SEQ: number;
export declare const CTL_KIND: number;
export declare const CTL_ARG: number;
export declare const CTL_DONE: number;
export declare const CTL_WORDS: number;
export declare const CMD_EXIT: number;
export declare const CMD_GEMM_TILES: number;
export declare const CMD_PEAK: number;
