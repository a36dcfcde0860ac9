/**
 * Names bound on the edited line: an insertion that declares a new local name binds it for the
 * code after it on that line's own block, so it is not a change to copy to lines that merely read
 * alike. Two families of wrong suggestions (the NES eval's training and dev sets, Go and C#):
 *
 * - A pattern variable named after a type test (C#'s `value is BigInteger` to `value is
 *   BigInteger integer`, Java's `x instanceof Foo` to `x instanceof Foo foo`): the name is there
 *   for the branch that follows, whose casts the author rewrites to use it; the next type test
 *   gets a name of its own (`is decimal d`) or none. The rules stay silent.
 * - A name added to the left of an assignment or a declaration (Go's `val, ok :=` to
 *   `val, ok, source :=`, `handlers :=` to `handlers, _ :=`): it receives a new result of what the
 *   right-hand side calls, so only lines assigning from the same call take it
 *   (`flagFromEnvOrFile(…)`, not `f.Value.(*Float64Slice)`). On the training set every such
 *   insertion that was right went to calls of the same function (4 of 4).
 *
 * Limits: read from the line's text, not parsed; the right-hand side's callee is the text from the
 * assignment's operator to its first parenthesis (`tr.FindRoute`), so the same function reached
 * through another receiver is another callee. Small families: they keep two wrong suggestions of
 * the dev sets back and cost none of the training set.
 */

/** An assignment's or a short declaration's operator (not a comparison, an arrow or a default in a parameter list). */
const ASSIGNS = /(?<![=!<>:+\-*/%&|^])(?::=|=(?![=>~]))/;

/** Whether inserting `inserted` after `before` names a pattern variable of a type test (`is T name`, `instanceof T name`). */
export function namesPatternVariable(before: string, removed: string, inserted: string): boolean {
	return removed.trim() === '' && /^\s+[\p{L}_][\p{L}\p{N}_]*\s*$/u.test(inserted) && /(?:^|[^\w$])(?:is|instanceof)\s+[\w$.]+(?:<[^()]*>)?(?:\[\])*\??$/.test(before);
}

/**
 * For an insertion of names only (`, source`, `x, `) on the left of an assignment (`after` is the
 * line's text after it), what the right-hand side calls: the places must assign from the same.
 * Undefined when the insertion is not that.
 */
export function boundFrom(before: string, after: string, removed: string, inserted: string): string | undefined {
	if (removed.trim() !== '' || !/^[\s,]*[\p{L}_][\p{L}\p{N}_]*[\s,]*$/u.test(inserted) || !/[,]/.test(inserted + after.slice(0, 1) + before.slice(-1))) {
		return undefined;
	}
	const operator = ASSIGNS.exec(after);
	if (!operator || ASSIGNS.test(before) || !/^[\s\p{L}\p{N}_,*&()[\]]*$/u.test(after.slice(0, operator.index))) {
		return undefined;
	}
	return calleeAfter(after.slice(operator.index + operator[0].length));
}

/** The callee of a right-hand side: its text up to the first parenthesis, trimmed (`tr.FindRoute`); the whole when it calls nothing. */
function calleeAfter(rhs: string): string {
	const paren = rhs.indexOf('(');
	return (paren === -1 ? rhs : rhs.slice(0, paren)).trim();
}

/** What the line's assignment at or after `column` calls on its right-hand side (undefined: no assignment after `column`). */
export function calleeOfAssignment(text: string, column: number): string | undefined {
	const after = text.slice(column);
	const operator = ASSIGNS.exec(after);
	return operator ? calleeAfter(after.slice(operator.index + operator[0].length)) : undefined;
}
