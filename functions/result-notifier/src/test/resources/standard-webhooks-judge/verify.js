// The judge of our callback signatures: the reference Standard Webhooks library verifies each captured delivery.
// Input (argv[2]): {"secret": "whsec_...", "deliveries": [{"name", "headers": {...}, "body"}]}.
// Output (stdout): one JSON array of {"name", "verified", "error"} in the same order.
"use strict";
const fs = require("fs");
const { Webhook } = require("standardwebhooks");

const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const webhook = new Webhook(input.secret);
const verdicts = input.deliveries.map((delivery) => {
  try {
    webhook.verify(delivery.body, delivery.headers);
    return { name: delivery.name, verified: true, error: null };
  } catch (e) {
    return { name: delivery.name, verified: false, error: e.message };
  }
});
process.stdout.write(JSON.stringify(verdicts));
