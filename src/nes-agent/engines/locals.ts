/**
 * A local variable's use replaced by another name (`ra := req.RealIP()` to `ra := c.RealIP()`,
 * `range flag.Names()` to `range f.Names()`, `let about = cmd` to `let about = subcommand`): the
 * name is the edited function's own, declared above the edited line in it (`req := …`, a
 * parameter, a `for` binding), so the same change goes only where that declaration holds. Another
 * function's variable of the same name is another variable, which the change says nothing about.
 * The rename engine already keeps a local's rename to its scope; this keeps the repeated
 * transformation and the same line elsewhere there too when the change is not a rename (the new
 * name is already in use, say). The family of renames applied outside the renamed name's
 * scope: on the NES eval's training set it changed nothing (its wrong copies of a local's
 * replacement, `req` to `c`, `token` to `_`, stood in the local's own function), on the
 * six-language dev set it kept back two wrong ones (`flag` in another function's loop, `cmd` in
 * another function's head).
 *
 * Limits: the declaration is looked for by its text on the lines above the edited one, up to the
 * function's first line (the nearest line indented less that opens a block, or 300 lines): a
 * short declaration (`x :=`, `x, err :=`), `let`/`var`/`val`/`const`/`mut`, a typed local (`Foo
 * x =`), a `for` or block binding (`for _, x := range`, `|x|`), a parameter of the function's head.
 * A name declared nowhere there (a field, a global, an import) is not restricted.
 */
import { isIdentifier, wholeWordColumns } from './identifiers';
import { declarationScope, indentOf, isBlockBinding, opensBlock, type LineSpan } from './scope';
import type { TextLines } from './types';

/** How far up a local's declaration is looked for. */
const LOOK_UP = 300;

/** Whether `name` at `column` of `text` is declared there as a local (not as a parameter: `isBlockBinding`). */
function declaresLocal(text: string, column: number, name: string): boolean {
	const before = text.slice(0, column);
	const after = text.slice(column + name.length);
	// `x :=`, `x, err :=`, `_, x :=` (Go), and `for _, x := range`.
	if (/^[\s\p{L}\p{N}_,]*$/u.test(before.replace(/^\s*(?:if|for|else if|switch)\s/, '')) && /^[\s\p{L}\p{N}_,]*:=/u.test(after)) {
		return true;
	}
	// `let x`, `let mut x`, `var x`, `val x`, `const x`, `auto x`, and a typed local `Foo x =` / `Foo<T> x =` / `Foo x;`.
	if (/(?:^|[^\p{L}\p{N}_$.])(?:let|var|val|const|mut|auto)\s+$/u.test(before)) {
		return true;
	}
	if (/^\s*(?:final\s+)?[\p{L}_][\p{L}\p{N}_.]*(?:<[^()]*>)?(?:\[\])*\??\s+$/u.test(before) && /^\s*(?:=(?!=)|;)/.test(after) && !/^\s*(?:return|else|new|throw|await|yield|case)\s/.test(before)) {
		return true;
	}
	// A Ruby block's parameters, `|x|` or `|a, x|`.
	return /\|[\s\p{L}\p{N}_,]*$/u.test(before) && /^[\s\p{L}\p{N}_,]*\|/u.test(after);
}

/**
 * Where the local `name` used on `line` is declared, looking up to the first line of the function
 * it stands in: its scope (`declarationScope`), or undefined when it is not found declared there.
 */
export function localScope(document: TextLines, line: number, name: string): LineSpan | undefined {
	let indent = Math.max(0, indentOf(document.lineText(line)));
	for (let i = line - 1; i >= 0 && i >= line - LOOK_UP; i--) {
		const text = document.lineText(i);
		const width = indentOf(text);
		if (width === -1 || !text.includes(name)) {
			if (width !== -1 && width < indent) {
				indent = width;
				if (width === 0 && opensBlock(text)) {
					return undefined;
				}
			}
			continue;
		}
		for (const column of wholeWordColumns(text, name)) {
			if (width < indent && isBlockBinding(text, column)) {
				return declarationScope(document, i, true);
			}
			if (width <= indent && declaresLocal(text, column, name)) {
				return declarationScope(document, i, false);
			}
		}
		if (width < indent) {
			indent = width;
			if (width === 0 && opensBlock(text)) {
				return undefined;
			}
		}
	}
	return undefined;
}

/**
 * For a change of code that replaces the name `removed` by the name `inserted` after `before` (the
 * edited line's text before it): where the local `removed` is declared, when it is one (not a
 * member reached through `.`, `->` or `::`, nor a `$`, `@` or `:` name). The change's other places
 * must lie in that scope; undefined when no local is replaced.
 */
export function replacedLocalScope(document: TextLines, line: number, kind: string, before: string, removed: string, inserted: string): LineSpan | undefined {
	return kind === 'code' && isIdentifier(removed.trim()) && isIdentifier(inserted.trim()) && !/(?:\.|->|::|[$@:])\s*$/.test(before) ? localScope(document, line, removed.trim()) : undefined;
}

/** A local declared at a line's start: `x :=`, `let x =`, `var x =`, `const x =`, `val x =`, `auto x =`. */
const LOCAL_AT_START = /^(\s*)(?:(?:let|var|val|const|auto)\s+(?:mut\s+)?)?([\p{L}_][\p{L}\p{N}_]*)\s*(?::=|=(?![=>]))/u;

/**
 * Whether the change from `oldLine` to `newLine` (its span from `start` to `oldEnd` of the old line)
 * gives the local declared at the line's start another name (`app := testApp()` to `cmd :=
 * testFishCommand()`, `var result =` to `const resultA =`): the edited function's variable, named
 * for it. The same declaration in another function declares another variable, which keeps its
 * name (`siteOf` keeps the repeated transformation and the same line elsewhere silent). On the NES
 * eval's sets it kept back one wrong suggestion each on the training set and the
 * six-language dev set, and no right one.
 */
export function redeclaresLocal(oldLine: string, newLine: string, start: number, oldEnd: number): boolean {
	const before = LOCAL_AT_START.exec(oldLine);
	const after = LOCAL_AT_START.exec(newLine);
	if (!before || !after || before[2] === after[2] || !/:=|^\s*(?:let|var|val|const|auto)\s/.test(before[0])) {
		return false;
	}
	const at = before[0].indexOf(before[2]!, before[1]!.length);
	return at < oldEnd && at + before[2]!.length > start;
}
