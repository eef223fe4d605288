import "./app.js";
