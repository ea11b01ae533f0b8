export function sourceFiles(dir: string): string[];
export function importsOf(src: string, file: string, text: string): string[];
