/**
 * Code highlighting, its own chunk loaded the first time a code block is shown: highlight.js's core
 * with a few common languages (each about 7 KB). Unknown languages stay plain.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

for (const [name, language] of Object.entries({ bash, css, diff, go, java, javascript, json, markdown, python, rust, typescript, xml, yaml })) {
	hljs.registerLanguage(name, language);
}
hljs.configure({ ignoreUnescapedHTML: true });

/** Highlighted HTML (escaped by highlight.js), or undefined for a language it does not know. */
export function highlight(code: string, language: string | undefined): string | undefined {
	const known = language !== undefined && hljs.getLanguage(language) !== undefined;
	return known ? hljs.highlight(code, { language, ignoreIllegals: true }).value : undefined;
}
