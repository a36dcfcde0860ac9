// Settings of the shop, written the old way.
var currency = 'EUR';
var taxRate = 0.2;
var freeShippingFrom = 50;
var maxItems = 99;

module.exports = { currency, taxRate, freeShippingFrom, maxItems };
