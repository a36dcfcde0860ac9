export interface Item {
	readonly name: string;
	readonly price: number;
	readonly quantity: number;
}

export function cartTotal(items: readonly Item[]): number {
	let total = 0;
	for (const item of items) {
		total += item.price * item.quantity;
	}
	if (total > 100) {
		total = total * 0.9;
	}
	return total;
}

export function cartSize(items: readonly Item[]): number {
	let count = 0;
	for (const item of items) {
		count += item.quantity;
	}
	return count;
}
